"""Schedules: a cron expression in an IANA time zone, or one moment (a one-off).

:func:`parse_cron` checks an expression field by field, so a mistake is reported
by the name of the field that holds it ("invalid cron: the hour field '25' must
be 0-23"). :func:`next_fire` finds the next moment after a given instant,
walking the schedule in the zone's *wall-clock* time (croniter on naive local
datetimes) and mapping each candidate to an instant with :mod:`zoneinfo`:

* spring-forward: a time the clock skips (02:30 on the night 02:00 → 03:00)
  fires once, at the same offset after the jump (03:30), as cron daemons do;
  two candidates that land on one instant fire once;
* fall-back: a time the clock shows twice (01:30) fires once, at its first
  occurrence.

:func:`describe` says a schedule in words for the list, the editor and the CLI
("Every weekday at 08:00 (Europe/Paris)"). No Qt here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = [
    "Schedule",
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


def parse_cron(expression: str) -> str:
    """``expression`` normalised (single spaces, aliases expanded), or a
    :class:`ScheduleError` naming the field at fault."""
    text = " ".join(str(expression or "").split())
    text = ALIASES.get(text.lower(), text)
    parts = text.split(" ")
    if not text or len(parts) != 5:
        raise ScheduleError(
            f"invalid cron {expression!r}: expected 5 fields (minute hour day-of-month month "
            f"day-of-week), got {0 if not text else len(parts)}")
    for index, part in enumerate(parts):
        _check_field(part, index)
    from croniter import croniter

    if not croniter.is_valid(text):  # anything our check let through
        raise ScheduleError(f"invalid cron {expression!r}")
    return text


def _instant(local: dt.datetime, tz: ZoneInfo) -> float:
    """The instant a wall-clock time means in ``tz`` (first occurrence when it is
    shown twice; shifted by the gap when the clock skips it)."""
    return local.replace(tzinfo=tz, fold=0).timestamp()


def next_fire(schedule: Schedule, after: float) -> float | None:
    """The first fire strictly after the instant ``after``; ``None`` if there is
    none (a one-off already past)."""
    if schedule.kind == "once":
        return schedule.at if schedule.at is not None and schedule.at > after else None
    from croniter import croniter

    tz = zone(schedule.tz)
    start = dt.datetime.fromtimestamp(after, tz).replace(tzinfo=None, fold=0)
    it = croniter(schedule.cron, start)
    for _ in range(MAX_STEPS):
        local = it.get_next(dt.datetime)
        when = _instant(local, tz)
        if when > after:
            return when
    return None


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
