#!/bin/sh
# Call one appstated method with raw Varlink frames over socat: JSON terminated by a NUL.
# No client library needed; this is the whole protocol for a request and its reply.
#
#   raw-call.sh METHOD [PARAMETERS-JSON]
#   raw-call.sh io.appstate.GetCurrent '{"path":"session"}'
#   raw-call.sh io.appstate.Login '{"user":"ada"}'
#
# The socket is $APPSTATE_SOCKET, else /run/appstate/io.appstate. Prints the reply's JSON.
set -eu
socket=${APPSTATE_SOCKET:-/run/appstate/io.appstate}
method=${1:?usage: raw-call.sh METHOD [PARAMETERS-JSON]}
parameters=${2:-"{}"}
# printf's \0 writes the terminator; socat half-closes after sending, and the daemon
# answers what it received before closing its side. tr turns the reply's NUL into a newline.
printf '{"method":"%s","parameters":%s}\0' "$method" "$parameters" \
    | socat -t 5 - "UNIX-CONNECT:$socket" \
    | tr '\0' '\n'
