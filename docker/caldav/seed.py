#!/usr/bin/env python3
"""Makes the demo team's calendars and a few busy events in them, over CalDAV (MKCALENDAR, PUT).

    seed.py BASE_URL TEAM_FILE

Each host of TEAM_FILE gets a calendar at the path of their calendarUrl under BASE_URL. The events:

- every host: the weekly sales sync, Tuesdays 15:00-16:00 Europe/Berlin (a recurring event, the same meeting in
  each calendar), so that slot is busy for the whole team and is not offered;
- Anna Berg and Lina Okafor: a customer workshop, 10:00-12:00 Europe/Berlin on the second weekday after the first
  start (a one-off event);
- Dana Whitfield: out of office all day on the third weekday after the first start (an all-day event);
- Lina Okafor: focus time on Friday mornings, marked free (TRANSP:TRANSPARENT), which hides nothing.

Run again, it changes nothing: a calendar that exists is kept, and an event is written under the same name.
"""
import json
from xml.sax.saxutils import escape
import re
import sys
import time
import urllib.error
import urllib.request
from datetime import date, datetime, timedelta, timezone
from urllib.parse import urlsplit

BERLIN = """BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE"""


def request(method, url, body=None, headers=None):
    data = body.encode("utf-8") if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


def wait_for(base):
    for _ in range(100):
        try:
            with urllib.request.urlopen(f"{base}/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the CalDAV server at {base} did not answer")


def weekdays_after(day, count):
    while count > 0:
        day += timedelta(days=1)
        if day.weekday() < 5:
            count -= 1
    return day


def calendar(uid, summary, lines, zone=True):
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    parts = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Converge//demo calendars//EN"]
    if zone:
        parts += BERLIN.split("\n")
    parts += ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp}", f"SUMMARY:{summary}", *lines, "END:VEVENT", "END:VCALENDAR", ""]
    return "\r\n".join(parts)


def main():
    base, team_file = sys.argv[1].rstrip("/"), sys.argv[2]
    with open(team_file, encoding="utf-8") as f:
        hosts = json.load(f)["hosts"]
    wait_for(base)

    today = datetime.now(timezone.utc).date()
    workshop = weekdays_after(today, 2).strftime("%Y%m%d")
    away = weekdays_after(today, 3)
    events = {
        "weekly-sales-sync": calendar(
            "weekly-sales-sync@converge.localhost",
            "Weekly sales sync",
            ["DTSTART;TZID=Europe/Berlin:20260106T150000", "DTEND;TZID=Europe/Berlin:20260106T160000", "RRULE:FREQ=WEEKLY;BYDAY=TU"],
        ),
        "customer-workshop": calendar(
            "customer-workshop@converge.localhost",
            "Customer workshop at Northwind (on site)",
            [f"DTSTART;TZID=Europe/Berlin:{workshop}T100000", f"DTEND;TZID=Europe/Berlin:{workshop}T120000"],
        ),
        "out-of-office": calendar(
            "out-of-office@converge.localhost",
            "Out of office: conference",
            [f"DTSTART;VALUE=DATE:{away.strftime('%Y%m%d')}", f"DTEND;VALUE=DATE:{(away + timedelta(days=1)).strftime('%Y%m%d')}"],
            zone=False,
        ),
        "focus-time": calendar(
            "focus-time@converge.localhost",
            "Focus time (shown as free)",
            ["DTSTART;TZID=Europe/Berlin:20260109T090000", "DTEND;TZID=Europe/Berlin:20260109T120000", "RRULE:FREQ=WEEKLY;BYDAY=FR", "TRANSP:TRANSPARENT"],
        ),
    }
    # Which events each host's calendar holds, by the host's place in the demo team.
    holds = [["weekly-sales-sync", "customer-workshop"], ["weekly-sales-sync", "out-of-office"], ["weekly-sales-sync", "customer-workshop", "focus-time"]]

    for index, host in enumerate(hosts):
        path = urlsplit(host["calendarUrl"]).path.rstrip("/") + "/"
        body = (
            '<?xml version="1.0" encoding="utf-8"?>'
            '<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
            f"<D:set><D:prop><D:displayname>{escape(host['name'])}</D:displayname></D:prop></D:set></C:mkcalendar>"
        )
        # A calendar already there (a seed cut off before it marked the volume seeded) is kept.
        # (xandikos answers a PROPFIND of a missing path with 207 too, its one response saying 404.)
        _, found = request("PROPFIND", f"{base}{path}", None, {"Depth": "0"})
        if not re.search(r"<(\w+:)?calendar\s*/>", found):
            status, _ = request("MKCALENDAR", f"{base}{path}", body, {"Content-Type": "application/xml; charset=utf-8"})
            if status != 201:
                sys.exit(f"MKCALENDAR {path} answered {status}")
        names = holds[index] if index < len(holds) else ["weekly-sales-sync"]
        for name in names:
            status, _ = request("PUT", f"{base}{path}{name}.ics", events[name], {"Content-Type": "text/calendar; charset=utf-8"})
            # xandikos refuses an object it cannot read with 207 (a multistatus naming the error): only these succeed.
            if status not in (201, 204):
                sys.exit(f"PUT {path}{name}.ics answered {status}")
        print(f"{host['name']}: calendar {path} with {', '.join(names)}", flush=True)


if __name__ == "__main__":
    main()
