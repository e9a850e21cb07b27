"""Schedules: a cron expression in an IANA time zone, or one moment (a one-off).

:func:`parse_cron` reads a schedule typed in words ("every weekday at 9am",
:mod:`~openworker_qt.automation.schedule_words`) or checks a cron expression field by field, so a mistake is reported
by the name of the field that holds it ("invalid cron: the hour field '25' must
be 0-23"). :func:`next_fire` finds the next moment after a given instant,
walking the schedule in the zone's *wall-clock* time (croniter on naive local
datetimes) and mapping each candidate to an instant with :mod:`zoneinfo`. Around
a change of the clocks, schedules are of two kinds (the rule cron daemons use):

* *by the clock* — the minute or the hour field starts with ``*`` (every minute,
  ``*/15 * * * *``, hourly ``0 * * * *``, every N hours ``0 */3 * * *``): they
  fire at every instant whose wall-clock time matches, so on the fall-back night
  the repeated hour fires on both of its occurrences (an every-minute schedule
  runs 02:59 CEST, 02:00 CET, 02:01 CET …, no hour without runs);
* *at a fixed time* — any other (``30 2 * * *``): a time the clock shows twice
  fires once, at its first occurrence.

On the spring-forward night a time the clock skips (02:30 when 02:00 → 03:00)
fires once, at the same offset after the jump (03:30), for both kinds; a fire
that lands on an instant another one already has is the same fire, so an
interval schedule has neither a gap nor a double there.

:func:`describe` says a schedule in words for the list, the editor and the CLI
("Every weekday at 08:00 (Europe/Paris)"). No Qt here.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from openworker_qt.automation.schedule_words import EXAMPLES, cron_from_words

__all__ = [
    "Schedule",
    "by_the_clock",
    "ScheduleError",
    "describe",
    "next_fire",
    "next_fires",
    "parse_cron",
    "zone",
]

FIELDS = ("minute", "hour", "day of month", "month", "day of week")
RANGES = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 7))
NAMES = {
    3: ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"],
    4: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
}
ALIASES = {
    "@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0", "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
}
DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

#: How many wall-clock candidates :func:`next_fire` looks at before giving up
#: (a schedule like "30 2 29 2 *" in a zone that skips 02:xx may need a few).
MAX_STEPS = 10_000


class ScheduleError(ValueError):
    """A schedule that cannot be used; the message names what is wrong."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """``kind="cron"``: ``cron`` in ``tz``; ``kind="once"``: the instant ``at`` (epoch s)."""

    kind: Literal["cron", "once"]
    tz: str
    cron: str = ""
    at: float | None = None


def zone(name: str) -> ZoneInfo:
    """The IANA zone ``name``; an unknown one is a :class:`ScheduleError`."""
    if not name or not isinstance(name, str):
        raise ScheduleError("a schedule needs a time zone, e.g. Europe/Paris")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"unknown time zone {name!r} (use a name such as Europe/Paris)") from None


def _value(text: str, index: int) -> int:
    names = NAMES.get(index)
    if names and text.lower() in names:
        return names.index(text.lower()) + (1 if index == 3 else 0)
    if not text.isdigit():
        raise ValueError(text)
    return int(text)


def _check_field(text: str, index: int) -> None:
    low, high = RANGES[index]
    name = FIELDS[index]
    shown = f"{low}-{high if index != 4 else 6}"
    hint = " or a name such as mon" if index == 4 else (" or a name such as jan" if index == 3 else "")

    def bad() -> ScheduleError:
        return ScheduleError(
            f"invalid cron: the {name} field {text!r} must be {shown}{hint}, '*', a range "
            "(a-b), a list (a,b) or a step (*/n)")

    if not text:
        raise bad()
    for part in text.split(","):
        base, slash, step = part.partition("/")
        if slash:
            if not step.isdigit() or int(step) < 1:
                raise bad()
        if base == "*" or (index in (2, 4) and base == "?"):
            continue
        lo, dash, hi = base.partition("-")
        try:
            first = _value(lo, index)
            last = _value(hi, index) if dash else first
        except ValueError:
            raise bad() from None
        if not (low <= first <= high and low <= last <= high) or last < first:
            raise bad()


_CRON_PART = re.compile(r"[0-9*?/,\-]+")
_CRON_NAMES = {n for values in NAMES.values() for n in values}


def _cron_field(part: str) -> bool:
    """Whether ``part`` reads as one cron field (numbers, ``*``, ranges, names)."""
    return bool(_CRON_PART.fullmatch(part)) or all(
        bool(_CRON_PART.fullmatch(p)) or p.lower() in _CRON_NAMES
        for p in re.split(r"[,\-/]", part) if p)


def parse_cron(expression: str) -> str:
    """``expression`` normalised (single spaces, aliases expanded) — a cron
    expression, or a schedule in words ("every weekday at 9am", "每天 18:30") turned
    into one — or a :class:`ScheduleError` naming the field at fault."""
    text = " ".join(str(expression or "").split())
    text = ALIASES.get(text.lower(), text)
    parts = text.split(" ")
    if text and not (len(parts) == 5 and all(_cron_field(p) for p in parts)):
        words = cron_from_words(text)
        if words is not None:
            return parse_cron(words)
        if all(_cron_field(p) for p in parts):
            raise ScheduleError(
                f"invalid cron {expression!r}: expected 5 fields (minute hour day-of-month "
                f"month day-of-week), got {len(parts)}")
        if not (len(parts) == 5 and _cron_field(parts[0]) and _cron_field(parts[1])):
            examples = ", ".join(f"“{e}”" for e in EXAMPLES[:3])
            raise ScheduleError(
                f"couldn't read {expression!r} as a schedule: write it in words, e.g. "
                f"{examples}, or as cron with 5 fields (minute hour day-of-month month "
                f"day-of-week)")
    if not text:
        raise ScheduleError(
            "a repeating schedule needs a time: write it in words, e.g. “every weekday at "
            "9am”, or as cron with 5 fields (minute hour day-of-month month day-of-week)")
    for index, part in enumerate(parts):
        _check_field(part, index)
    from croniter import croniter

    if not croniter.is_valid(text):  # anything our check let through
        raise ScheduleError(f"invalid cron {expression!r}")
    return text


#: The widest change of the clocks allowed for (real zones change by 2 h at most).
SHIFT = dt.timedelta(hours=3)


def by_the_clock(cron: str) -> bool:
    """Whether ``cron`` repeats through the day (its minute or hour field starts
    with ``*``): such a schedule also fires in the second occurrence of a
    repeated hour."""
    minute, hour = cron.split(" ")[:2]
    return minute.startswith("*") or hour.startswith("*")


def _instants(local: dt.datetime, tz: ZoneInfo, both: bool) -> tuple[list[float], bool]:
    """The instants the wall-clock time ``local`` fires at in ``tz``, and whether
    the time is an ordinary one (shown once). A time shown twice gives its first
    occurrence, and its second too when ``both``; a skipped time gives the instant
    the same offset after the jump."""
    first = local.replace(tzinfo=tz, fold=0)
    second = local.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        return [first.timestamp()], True
    shown = dt.datetime.fromtimestamp(first.timestamp(), tz).replace(tzinfo=None)
    if both and shown == local:  # shown twice, not skipped
        return [first.timestamp(), second.timestamp()], False
    return [first.timestamp()], False


def next_fire(schedule: Schedule, after: float) -> float | None:
    """The first fire strictly after the instant ``after``; ``None`` if there is
    none (a one-off already past). Depends on nothing but its arguments."""
    if schedule.kind == "once":
        return schedule.at if schedule.at is not None and schedule.at > after else None
    from croniter import croniter

    tz = zone(schedule.tz)
    both = by_the_clock(schedule.cron)
    here = dt.datetime.fromtimestamp(after, tz)
    start = here.replace(tzinfo=None, fold=0)
    # Near a change of the clocks a wall-clock time before ``start`` may still be
    # ahead (the second occurrence of a repeated hour; a skipped time shifted past
    # ``after``): walk from a little earlier and keep the earliest instant, until
    # no later wall-clock time can come before it.
    span = SHIFT.total_seconds()
    offsets = {dt.datetime.fromtimestamp(after + d, tz).utcoffset() or dt.timedelta()
               for d in (-span, 0, span)}
    change = max(offsets) - min(offsets)  # the size of a change of the clocks near ``after``
    start -= change
    it = croniter(schedule.cron, start)
    best: float | None = None
    stop: dt.datetime | None = None  # a wall-clock time past which nothing comes sooner
    careful = bool(change)
    for _ in range(MAX_STEPS):
        local = it.get_next(dt.datetime)
        if stop is not None and local > stop:
            return best
        instants, ordinary = _instants(local, tz, both)
        ahead = [when for when in instants if when > after]
        if not ahead:
            continue
        if best is None or min(ahead) < best:
            best = min(ahead)
            stop = dt.datetime.fromtimestamp(best, tz).replace(tzinfo=None) + (change or SHIFT)
        careful = careful or not ordinary
        if not careful:
            # An ordinary time, walked to from ``start``: no later one comes sooner.
            return best
    return best


def next_fires(schedule: Schedule, after: float, count: int = 3) -> list[float]:
    out: list[float] = []
    current = after
    while len(out) < count:
        when = next_fire(schedule, current)
        if when is None:
            break
        out.append(when)
        current = when
    return out


def _hhmm(minute: str, hour: str) -> str | None:
    if minute.isdigit() and hour.isdigit():
        return f"{int(hour):02d}:{int(minute):02d}"
    return None


def _days(field: str) -> str | None:
    if field in ("1-5", "mon-fri"):
        return "Every weekday"
    if field in ("0,6", "6,0", "sat,sun", "sun,sat", "6-7"):
        return "Every Saturday and Sunday"
    names = []
    for part in field.split(","):
        try:
            value = _value(part, 4)
        except ValueError:
            return None
        names.append(DAYS[value % 7])
    if len(names) == 1:
        return f"Every {names[0]}"
    return "Every " + ", ".join(names[:-1]) + " and " + names[-1]


def _words(cron: str) -> str:
    minute, hour, dom, month, dow = cron.split(" ")
    at = _hhmm(minute, hour)
    if month == "*" and dom == "*":
        if at and dow == "*":
            return f"Every day at {at}"
        if at:
            days = _days(dow)
            if days:
                return f"{days} at {at}"
        if dow == "*" and hour == "*":
            if minute.startswith("*/") or minute.startswith("0/"):
                step = minute.split("/")[1]
                return "Every minute" if step == "1" else f"Every {step} minutes"
            if minute == "*":
                return "Every minute"
            if minute.isdigit():
                return "Every hour" if minute == "0" else f"Every hour at {int(minute)} past"
        if dow == "*" and minute.isdigit() and (hour.startswith("*/") or hour.startswith("0/")):
            step = hour.split("/")[1]
            return f"Every {step} hours at {int(minute)} past" if minute != "0" else f"Every {step} hours"
    if at and dom.isdigit() and month == "*" and dow == "*":
        return f"On day {int(dom)} of every month at {at}"
    return f"On the schedule “{cron}”"


def describe(schedule: Schedule) -> str:
    """The schedule in words, with its zone."""
    if schedule.kind == "once":
        if schedule.at is None:
            return "Once (no time set)"
        local = dt.datetime.fromtimestamp(schedule.at, zone(schedule.tz))
        return f"Once, on {local:%a %d %b %Y} at {local:%H:%M} ({schedule.tz})"
    return f"{_words(schedule.cron)} ({schedule.tz})"
