#!/bin/sh
# Serves the calendars in /var/lib/converge-caldav/dav on port 8000. On the first start (no `seeded` mark in the
# volume) it first makes the demo team's calendars and their busy events, through a server of its own on
# 127.0.0.1:8001, so that the health check (port 8000) passes only once the calendars are there.
set -eu
DATA=/var/lib/converge-caldav
SHARE=/usr/local/share/converge-caldav

if [ ! -e "$DATA/seeded" ]; then
  xandikos -d "$DATA/dav" --autocreate -l 127.0.0.1 -p 8001 &
  seeder=$!
  if python3 "$SHARE/seed.py" http://127.0.0.1:8001 "$SHARE/demo-team.json"; then
    kill "$seeder"
    wait "$seeder" || true
    touch "$DATA/seeded"
  else
    kill "$seeder"
    wait "$seeder" || true
    echo "seeding the demo calendars failed" >&2
    exit 1
  fi
fi

exec xandikos -d "$DATA/dav" --autocreate -l 0.0.0.0 -p 8000
