"""Schedules and times as the Automations window says them, in the user's language.

:func:`schedule_words` turns :func:`~openworker_qt.automation.schedule.describe`'s
English into the translated phrase; :func:`local_time` a run's time; and
:func:`local_zone` the computer's IANA zone for a new automation.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from openworker_qt.automation.schedule import Schedule, describe, zone

__all__ = ["local_time", "local_zone", "schedule_words"]


def local_zone() -> str:
    key = getattr(dt.datetime.now().astimezone().tzinfo, "key", None)
    if key:
        return str(key)
    try:
        parts = Path("/etc/localtime").resolve().parts
        if "zoneinfo" in parts:
            return "/".join(parts[parts.index("zoneinfo") + 1:])
    except OSError:
        pass
    return "UTC"


def local_time(ts: float | None) -> str:
    if ts is None:
        return "—"
    # The strftime format is translated (the names of days and months are English).
    return dt.datetime.fromtimestamp(ts).astimezone().strftime(
        QCoreApplication.translate("AutomationsWindow", "%a %d %b %H:%M"))


def _day_names() -> dict[str, str]:
    return {
        "Sunday": QCoreApplication.translate("Schedule", "Sunday"),
        "Monday": QCoreApplication.translate("Schedule", "Monday"),
        "Tuesday": QCoreApplication.translate("Schedule", "Tuesday"),
        "Wednesday": QCoreApplication.translate("Schedule", "Wednesday"),
        "Thursday": QCoreApplication.translate("Schedule", "Thursday"),
        "Friday": QCoreApplication.translate("Schedule", "Friday"),
        "Saturday": QCoreApplication.translate("Schedule", "Saturday"),
    }


def schedule_words(schedule: Schedule) -> str:
    """The schedule in words (:func:`describe`) in the user's language."""
    english = describe(schedule)
    if schedule.kind == "once":
        if schedule.at is None:
            return QCoreApplication.translate("Schedule", "Once (no time set)")
        local = dt.datetime.fromtimestamp(schedule.at, zone(schedule.tz))
        date = local.strftime(QCoreApplication.translate("Schedule", "%a %d %b %Y"))
        return QCoreApplication.translate("Schedule", "Once, on {date} at {time} ({tz})").format(
            date=date, time=f"{local:%H:%M}", tz=schedule.tz)
    words, _, tz = english.rpartition(" (")
    tz = tz[:-1]
    days = _day_names()

    def day_list(text: str) -> str | None:
        names = [n.strip() for n in re.split(r", | and ", text)]
        if not all(n in days for n in names):
            return None
        return QCoreApplication.translate("Schedule", ", ").join(days[n] for n in names)

    said: str | None = None
    if m := re.fullmatch(r"Every day at (\d\d:\d\d)", words):
        said = QCoreApplication.translate("Schedule", "Every day at {time}").format(time=m[1])
    elif m := re.fullmatch(r"Every weekday at (\d\d:\d\d)", words):
        said = QCoreApplication.translate("Schedule", "Every weekday at {time}").format(
            time=m[1])
    elif m := re.fullmatch(r"Every Saturday and Sunday at (\d\d:\d\d)", words):
        said = QCoreApplication.translate(
            "Schedule", "Every Saturday and Sunday at {time}").format(time=m[1])
    elif m := re.fullmatch(r"Every (.+) at (\d\d:\d\d)", words):
        listed = day_list(m[1])
        if listed is not None:
            said = QCoreApplication.translate("Schedule", "Every {days} at {time}").format(
                days=listed, time=m[2])
    elif words == "Every minute":
        said = QCoreApplication.translate("Schedule", "Every minute")
    elif m := re.fullmatch(r"Every (\d+) minutes", words):
        said = QCoreApplication.translate("Schedule", "Every {n} minutes").format(n=m[1])
    elif words == "Every hour":
        said = QCoreApplication.translate("Schedule", "Every hour")
    elif m := re.fullmatch(r"Every hour at (\d+) past", words):
        said = QCoreApplication.translate("Schedule", "Every hour at {m} past").format(m=m[1])
    elif m := re.fullmatch(r"Every (\d+) hours at (\d+) past", words):
        said = QCoreApplication.translate("Schedule", "Every {n} hours at {m} past").format(
            n=m[1], m=m[2])
    elif m := re.fullmatch(r"Every (\d+) hours", words):
        said = QCoreApplication.translate("Schedule", "Every {n} hours").format(n=m[1])
    elif m := re.fullmatch(r"On day (\d+) of every month at (\d\d:\d\d)", words):
        said = QCoreApplication.translate(
            "Schedule", "On day {day} of every month at {time}").format(day=m[1], time=m[2])
    elif m := re.fullmatch(r"On the schedule “(.+)”", words):
        said = QCoreApplication.translate("Schedule", "On the schedule “{cron}”").format(
            cron=m[1])
    if said is None:
        return english
    return QCoreApplication.translate("Schedule", "{words} ({tz})").format(words=said, tz=tz)
