"""Schedules typed in plain words, turned into the cron expression they mean.

People write "every weekday at 9am", "daily at 18:30", "every 15 minutes",
"mondays and thursdays at 8", "on the 1st of every month at 9", or in Chinese
"每个工作日 9:00", "每天 18:30", "每 15 分钟". :func:`cron_from_words` reads such a
phrase and returns a five-field cron expression, or ``None`` when the phrase is
not one it understands (the caller then explains what it can read). It only
accepts a phrase it reads whole: a word it does not know makes it ``None``, so a
typo never becomes a schedule nobody asked for. No Qt here.
"""

from __future__ import annotations

import re

__all__ = ["EXAMPLES", "PRESETS", "cron_from_words"]

#: What the editor and the error message offer as examples.
EXAMPLES = ("every weekday at 9am", "every day at 18:30", "every Monday at 8:00",
            "every 15 minutes", "every hour", "on the 1st of every month at 9am")

#: Presets for the editor: (words shown, cron). The words parse to the cron.
PRESETS: tuple[tuple[str, str], ...] = (
    ("Every weekday at 9:00", "0 9 * * 1-5"),
    ("Every day at 8:00", "0 8 * * *"),
    ("Every Monday at 9:00", "0 9 * * 1"),
    ("Every Friday at 17:00", "0 17 * * 5"),
    ("Every hour", "0 * * * *"),
    ("Every 15 minutes", "*/15 * * * *"),
    ("On the 1st of every month at 9:00", "0 9 1 * *"),
)

_DAY_NAMES = {
    "sunday": 0, "sun": 0, "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2,
    "wednesday": 3, "wed": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
    "friday": 5, "fri": 5, "saturday": 6, "sat": 6,
}
_ZH_DAYS = {"日": 0, "天": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6}

_TIME = re.compile(
    r"^(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>am|pm|a\.m\.|p\.m\.)?$")


def _time(text: str) -> tuple[int, int] | None:
    """``(hour, minute)`` of "9", "9am", "9:30 pm", "18:30", "noon", "midnight"."""
    text = text.strip().lower()
    if text == "noon":
        return 12, 0
    if text == "midnight":
        return 0, 0
    match = _TIME.match(text)
    if not match:
        return None
    hour, minute = int(match["h"]), int(match["m"] or 0)
    ampm = (match["ap"] or "").replace(".", "")
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    if hour > 23 or minute > 59:
        return None
    return hour, minute


def _days(text: str) -> str | None:
    """The day-of-week field for "day", "weekday(s)", "weekend", "monday and
    thursday", "mon, wed, fri", "mondays"; ``None`` if a word is unknown."""
    text = text.strip().lower()
    if text in ("day", "days", "daily", ""):
        return "*"
    if text in ("weekday", "weekdays", "work day", "work days", "workday", "workdays",
                "business day", "business days"):
        return "1-5"
    if text in ("weekend", "weekends", "weekend day", "weekend days"):
        return "0,6"
    values: list[int] = []
    for word in re.split(r"\s*(?:,|\band\b|&|\+)\s*", text):
        word = word.strip()
        if not word:
            continue
        if word.endswith("s") and word[:-1] in _DAY_NAMES:
            word = word[:-1]
        if word not in _DAY_NAMES:
            return None
        if _DAY_NAMES[word] not in values:
            values.append(_DAY_NAMES[word])
    if not values:
        return None
    return ",".join(str(v) for v in sorted(values))


def _english(text: str) -> str | None:
    text = re.sub(r"\s+", " ", text.strip().lower()).rstrip(".")
    text = re.sub(r"^(run |repeat )", "", text)
    if text in ("hourly", "every hour", "each hour"):
        return "0 * * * *"
    if text in ("every minute", "each minute"):
        return "* * * * *"
    if m := re.fullmatch(r"(?:every|each) (\d{1,2}) ?(?:minutes|mins|min|m)", text):
        step = int(m[1])
        return f"*/{step} * * * *" if 1 <= step <= 59 else None
    if m := re.fullmatch(r"(?:every|each) (\d{1,2}) ?(?:hours|hrs|hr|h)", text):
        step = int(m[1])
        return f"0 */{step} * * *" if 1 <= step <= 23 else None
    if m := re.fullmatch(r"(?:every|each) hour at (\d{1,2}) ?(?:minutes )?past(?: the hour)?", text):
        minute = int(m[1])
        return f"{minute} * * * *" if minute <= 59 else None
    # "on the 1st of every month at 9am", "monthly on the 15th at 8:00", "every month on day 3 at 9"
    monthly = re.fullmatch(
        r"(?:(?:on )?(?:the )?(?:day )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?(?:every|each) month"
        r"|(?:monthly|every month|each month) on (?:the )?(?:day )?(\d{1,2})(?:st|nd|rd|th)?)"
        r"(?: at (.+))?", text)
    if monthly:
        day = int(monthly[1] or monthly[2])
        at = _time(monthly[3]) if monthly[3] else (9, 0)
        if at is None or not 1 <= day <= 31:
            return None
        return f"{at[1]} {at[0]} {day} * *"
    # "every weekday at 9am", "daily at 8", "mondays and thursdays at 8", "at 9 every day"
    m = re.fullmatch(r"at (.+?) (?:every|each|on) (.+)", text)
    if m:
        when, days = m[1], m[2]
    else:
        m = re.fullmatch(r"(?:(?:every|each|on) )?(.+?) at (.+)", text)
        if not m:
            return None
        days, when = m[1], m[2]
    field = _days(days)
    at = _time(when)
    if field is None or at is None:
        return None
    return f"{at[1]} {at[0]} * * {field}"


def _chinese(text: str) -> str | None:
    text = re.sub(r"\s+", "", text)
    if text in ("每小时", "每个小时"):
        return "0 * * * *"
    if m := re.fullmatch(r"每(\d{1,2})分钟", text):
        step = int(m[1])
        return f"*/{step} * * * *" if 1 <= step <= 59 else None
    if m := re.fullmatch(r"每(\d{1,2})(?:个)?小时", text):
        step = int(m[1])
        return f"0 */{step} * * *" if 1 <= step <= 23 else None
    m = re.fullmatch(
        r"(每天|每日|每个工作日|工作日|每周末|周末|每周([一二三四五六日天、和]+)|每月(\d{1,2})[日号])"
        r"(?:(上午|早上|下午|晚上))?(\d{1,2})(?:[:：](\d{2})|点(?:(\d{1,2})分?|半)?)?", text)
    if not m:
        return None
    hour = int(m[5])
    minute = int(m[6] or m[7] or 0)
    if text.endswith("半"):
        minute = 30
    if m[4] in ("下午", "晚上") and hour < 12:
        hour += 12
    if hour > 23 or minute > 59:
        return None
    head = m[1]
    if m[3]:
        day = int(m[3])
        return f"{minute} {hour} {day} * *" if 1 <= day <= 31 else None
    if head in ("每天", "每日"):
        field = "*"
    elif head in ("每个工作日", "工作日"):
        field = "1-5"
    elif head in ("每周末", "周末"):
        field = "0,6"
    else:
        days = sorted({_ZH_DAYS[c] for c in (m[2] or "") if c in _ZH_DAYS})
        if not days:
            return None
        field = ",".join(str(d) for d in days)
    return f"{minute} {hour} * * {field}"


def cron_from_words(text: str) -> str | None:
    """The cron expression ``text`` means, or ``None`` if it is not a phrase read here."""
    text = str(text or "").strip()
    if not text or len(text) > 120:
        return None
    if re.search(r"[\u4e00-\u9fff]", text):
        return _chinese(text)
    return _english(text)
