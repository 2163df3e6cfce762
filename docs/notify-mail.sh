#!/bin/sh
# One e-mail per railgames notification, sent with the system's `mail`
# (Debian/Ubuntu: `apt-get install bsd-mailx` or `mailutils`):
#
#     railgames host --notify-command 'sh docs/notify-mail.sh'
#
# The host gives the notification as one JSON object on standard input (see the
# README). Players who set no address, or one that is not an e-mail address, are
# skipped: the exit status is 0, so the host does not try again.
set -eu
doc=$(cat)
field() {
    printf '%s' "$doc" | python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]] or "")' "$1"
}
to=$(field to)
case "$to" in
    -* | *[[:space:]]* | *[\;\|\&\`\$\<\>]*) exit 0 ;;
    ?*@?*) ;;
    *) exit 0 ;;
esac
subject="railgames: $(field text)"
{
    field text
    echo
    echo "To play: $(field join)"
} | mail -s "$subject" -- "$to"
