"""The Google Calendar connector (Calendar): Your events; new events on a calendar you choose."""

from __future__ import annotations

from typing import Any

from openworker_qt.connectors.base import (
    ConnectorSpec,
    HttpApi,
    Identity,
    ToolDef,
    dumps,
    obj,
    path_segment,
    s,
)
from openworker_qt.connectors.services.common import GOOGLE_FIELDS, google_oauth, oauth_bearer, pick

GCAL_OAUTH = google_oauth("https://www.googleapis.com/auth/calendar")


_gcal = oauth_bearer("Google Calendar", GCAL_OAUTH, "https://www.googleapis.com/calendar/v3")


async def _gcal_validate(api: HttpApi) -> Identity:
    cal = await api.get("users/me/calendarList/primary")
    return Identity(str(cal.get("id")), "Google Calendar")


async def _gcal_events(api: HttpApi, a: dict[str, Any]) -> str:
    params = {"singleEvents": "true", "orderBy": "startTime", "maxResults": 50}
    for key, name in (("time_min", "timeMin"), ("time_max", "timeMax")):
        if a.get(key):
            params[name] = a[key]
    cal = path_segment(a.get("calendar") or "primary")
    data = await api.get(f"calendars/{cal}/events", params=params)
    return dumps(pick((data or {}).get("items"), "summary", "start", "end", "location",
                       "attendees", "htmlLink"))


async def _gcal_create(api: HttpApi, a: dict[str, Any]) -> str:
    body: dict[str, Any] = {"summary": a["summary"], "start": {"dateTime": a["start"]},
                            "end": {"dateTime": a["end"]}}
    if a.get("attendees"):
        body["attendees"] = [{"email": e.strip()} for e in str(a["attendees"]).split(",") if e.strip()]
    cal = path_segment(a["calendar"])
    made = await api.post(f"calendars/{cal}/events", json_body=body)
    return f"Event created: {made.get('htmlLink', made.get('id', ''))}"


SPEC = ConnectorSpec(
    id="google_calendar", name="Google Calendar", category="Calendar",
    description="Your events; new events on a calendar you choose.",
    fields=GOOGLE_FIELDS, extra={"oauth": GCAL_OAUTH},
    client=_gcal, validate=_gcal_validate, api_url="https://www.googleapis.com/calendar/v3",
    tools=(
        ToolDef("gcal_list_events", "List events between two times (RFC 3339).",
                obj({"time_min": s("start, e.g. 2026-12-01T00:00:00Z"), "time_max": s("end"),
                     "calendar": s("calendar id (default: primary)")}), _gcal_events),
        ToolDef("gcal_create_event", "Create an event (attendees get an invitation).",
                obj({"calendar": s("calendar id, e.g. primary"), "summary": s("title"),
                     "start": s("RFC 3339 start"), "end": s("RFC 3339 end"),
                     "attendees": s("comma-separated e-mail addresses")},
                    ("calendar", "summary", "start", "end")),
                _gcal_create, action=True, target_arg="calendar"),
    ),
)
