#!/usr/bin/env bash
# Several `tarot serve` processes as one site on a machine without containers (docs/scaling.md):
#   deploy/cluster.sh [-n PROCESSES] [-p PORT] --db postgresql://… --redis redis://…
# starts PROCESSES nodes (default 2) on ports PORT+1… and Debian's nginx on PORT (default 8000)
# in front of them; a node that stops is started again (its tables are taken over meanwhile by the
# others); Ctrl-C or a SIGTERM stops them all. Needs `tarot` on the PATH (or TAROT=…/tarot) and nginx.
set -euo pipefail
n=2 port=8000 db="" redis=""
while [ $# -gt 0 ]; do
    case "$1" in
        -n) n="$2"; shift 2 ;;
        -p) port="$2"; shift 2 ;;
        --db) db="$2"; shift 2 ;;
        --redis) redis="$2"; shift 2 ;;
        *) echo "usage: $0 [-n PROCESSES] [-p PORT] --db postgresql://… --redis redis://…" >&2; exit 2 ;;
    esac
done
if [ -z "$db" ] || [ -z "$redis" ]; then
    echo "usage: $0 [-n PROCESSES] [-p PORT] --db postgresql://… --redis redis://…" >&2; exit 2
fi
tarot="${TAROT:-tarot}"
nginx="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
[ -x "$nginx" ] || { echo "error: nginx not found (apt-get install nginx)" >&2; exit 1; }
dir="$(mktemp -d "${TMPDIR:-/tmp}/tarot-cluster.XXXXXX")"
stop() { trap - EXIT INT TERM; kill 0 2>/dev/null || true; rm -rf "$dir"; }
trap stop EXIT INT TERM
upstreams=""
for i in $(seq 1 "$n"); do
    p=$((port + i))
    # each node started again whenever it stops (as a service manager would); it trusts nginx,
    # on this machine, to say who each client is (X-Forwarded-For, X-Forwarded-Proto)
    (while true; do
        "$tarot" serve --db "$db" --redis "$redis" --port "$p" --forwarded-allow-ips 127.0.0.1 \
            >> "$dir/node$i.log" 2>&1 || true
        echo "node $i stopped: starting it again" >&2
        sleep 1
    done) &
    # one after another: the first one creates or migrates the database
    for _ in $(seq 1 600); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then break; fi
        sleep 0.1
    done
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { cat "$dir/node$i.log" >&2; exit 1; }
    upstreams+="        server 127.0.0.1:$p max_fails=1 fail_timeout=5s;"$'\n'
    echo "node $i: http://127.0.0.1:$p/ (log $dir/node$i.log)"
done
mkdir -p "$dir"/{body,proxy,fastcgi,uwsgi,scgi}
conf="$(dirname "$0")/nginx.conf.in"
python3 - "$conf" "$dir/nginx.conf" "$port" "$dir" "$upstreams" <<'PY'
import sys
src, out, port, where, upstreams = sys.argv[1:]
text = open(src).read().replace("@PORT@", port).replace("@DIR@", where).replace("@UPSTREAMS@", upstreams.rstrip())
open(out, "w").write(text)
PY
echo "Open http://localhost:$port/ in your browser ($n processes behind nginx)"
# (in the background, waited for: a SIGTERM to this script then stops everything at once, where
# bash would let nginx in the foreground run on and only trap the signal once it ended)
"$nginx" -c "$dir/nginx.conf" &
wait $!
