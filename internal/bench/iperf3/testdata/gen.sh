#!/bin/sh
# Regenerates the iperf3 JSON fixtures from a real iperf3 on 127.0.0.1.
# Run by hand from this directory: sh gen.sh   (not run by go test)
set -u
P=${PORT:-47311}
run() { # run OUT ARGS... : one-off server + client, client JSON to OUT
	out=$1; shift
	iperf3 -s -1 -p "$P" -B 127.0.0.1 >/dev/null 2>&1 &
	spid=$!
	sleep 0.5
	iperf3 -c 127.0.0.1 -p "$P" -J "$@" >"$out"
	echo "$out: exit $?"
	wait "$spid" 2>/dev/null
}
run tcp_upload.json   -t 2 -O 1 -M 1200 --connect-timeout 3000
run tcp_download.json -t 2 -O 1 -R --connect-timeout 3000
run tcp_bidir.json    -t 2 -O 1 --bidir --connect-timeout 3000
run udp.json          -t 2 -O 1 -u -b 100M --connect-timeout 3000
run tcp_parallel.json -t 2 -O 1 -P 2 --connect-timeout 3000
# client to a closed port
iperf3 -c 127.0.0.1 -p "$P" -J -t 1 --connect-timeout 1000 >error_refused.json
echo "error_refused.json: exit $?"
# server on a busy port: text (as StartServer sees it) and JSON
iperf3 -s -1 -p "$P" -B 127.0.0.1 >/dev/null 2>&1 &
spid=$!
sleep 0.5
iperf3 -s -1 -p "$P" -B 127.0.0.1 >error_busy.txt 2>&1
echo "error_busy.txt: exit $?"
iperf3 -s -1 -p "$P" -B 127.0.0.1 -J >error_busy.json
echo "error_busy.json: exit $?"
kill "$spid"; wait "$spid" 2>/dev/null
# an MSS the kernel refuses: error key, exit status 0
run error_mss.json -t 1 -M 87 --connect-timeout 3000
# a second client while the server runs a test
iperf3 -s -p "$P" -B 127.0.0.1 >/dev/null 2>&1 &
spid=$!
sleep 0.5
iperf3 -c 127.0.0.1 -p "$P" -t 3 -b 10M >/dev/null 2>&1 &
cpid=$!
sleep 1
iperf3 -c 127.0.0.1 -p "$P" -J -t 1 --connect-timeout 3000 >error_server_busy.json
echo "error_server_busy.json: exit $?"
wait "$cpid"
kill "$spid"; wait "$spid" 2>/dev/null
true
