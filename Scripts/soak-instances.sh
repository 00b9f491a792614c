#!/usr/bin/env bash
# Soak of two gateway instances on one PostgreSQL database, with separate processes only:
# a throwaway PostgreSQL server, two `mpos gateway serve --database`, one `mpos reader emulate`,
# and N `mpos sale` runs through the emulator alternating between the instances, while one
# instance is killed with SIGKILL and restarted every ~50 sales. At the end the sales the CLI
# reported approved are compared with the ledger; exits non-zero on any difference.
#
#   Scripts/soak-instances.sh            # 200 sales
#   N=500 KILL_EVERY=25 Scripts/soak-instances.sh
#   MPOS=.build/release/mpos Scripts/soak-instances.sh
set -euo pipefail

N=${N:-200}
KILL_EVERY=${KILL_EVERY:-50}
MPOS=${MPOS:-.build/debug/mpos}
MPOS=$(cd "$(dirname "$MPOS")" && pwd)/$(basename "$MPOS")
PG_BIN=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$MPOS" ] || { echo "no mpos binary at $MPOS (swift build first)" >&2; exit 2; }
[ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL's initdb not found (set PG_BIN)" >&2; exit 2; }

WORK=$(mktemp -d /tmp/mpos-soak-XXXXXX)
PIDS=()
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    as_postgres "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# PostgreSQL, as LocalPostgres starts it: trust authentication, loopback, a free port.
[ "$(id -u)" = 0 ] && chown postgres: "$WORK"
as_postgres "$PG_BIN/initdb" -D "$WORK/data" -A trust -U postgres -E UTF8 --locale=C --no-sync >/dev/null
PG_PORT=$(free_port)
as_postgres "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 60 \
    -o "-p $PG_PORT -k $WORK -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres soak
DB="postgres://postgres@127.0.0.1:$PG_PORT/soak"
psql_soak() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d soak -At -v ON_ERROR_STOP=1 -c "$1"; }

# Starts instance $1 (0 or 1) on its port; await_gateway waits for its "listening on" line.
GW_PID=(0 0)
GW_PORT=("$(free_port)" "$(free_port)")
launch_gateway() {
    local index=$1
    : >"$WORK/gateway-$index.out"
    "$MPOS" gateway serve --port "${GW_PORT[$index]}" --database "$DB" \
        >"$WORK/gateway-$index.out" 2>"$WORK/gateway-$index.err" &
    GW_PID[$index]=$!
    PIDS+=("$!")
}
await_gateway() {
    local index=$1
    for _ in $(seq 1 600); do
        grep -q '^listening on ' "$WORK/gateway-$index.out" && return 0
        kill -0 "${GW_PID[$index]}" 2>/dev/null || break
        sleep 0.1
    done
    echo "gateway $index did not start:" >&2
    cat "$WORK/gateway-$index.out" "$WORK/gateway-$index.err" >&2
    exit 2
}
start_gateway() { launch_gateway "$1"; await_gateway "$1"; }
start_gateway 0
start_gateway 1
USER_ID=$(awk '$1 == "user" { print $2 }' "$WORK/gateway-0.out")
PASSWORD=$(awk '$1 == "password" { print $2 }' "$WORK/gateway-0.out")
[ -n "$USER_ID" ] && [ -n "$PASSWORD" ] || { echo "instance 0 printed no credentials" >&2; exit 2; }
if grep -q 'created sandbox merchant' "$WORK/gateway-1.out"; then
    echo "the second instance printed credentials too" >&2
    exit 1
fi

"$MPOS" reader emulate --port 0 --discovery-port 0 >"$WORK/reader.out" 2>/dev/null &
PIDS+=("$!")
for _ in $(seq 1 300); do grep -q '^listening on ' "$WORK/reader.out" && break; sleep 0.1; done
READER=$(sed -n 's/^listening on //p' "$WORK/reader.out" | head -1)
[ -n "$READER" ] || { echo "the reader emulator did not start" >&2; exit 2; }

: >"$WORK/approved.ids"
approved=0 failed=0 kills=0
sale() {
    MPOS_PASSWORD="$PASSWORD" "$MPOS" sale --amount "$1" --json --gateway "http://127.0.0.1:${GW_PORT[$2]}" \
        --user "$USER_ID" --reader "$READER" --journal "$WORK/journal.sqlite" \
        2>>"$WORK/sales.err" || true
}
for i in $(seq 1 "$N"); do
    index=$((i % 2))
    amount=$(printf '%d.%02d' $(((200 + i) / 100)) $(((200 + i) % 100)))
    if [ $((i % KILL_EVERY)) = 0 ]; then
        # Instance 0 dies while this sale runs on it, and comes back on its port; the sales
        # after it keep alternating between the instances.
        sale "$amount" 0 >"$WORK/sale.out" &
        running=$!
        sleep "0.$((RANDOM % 9 + 1))"
        kill -9 "${GW_PID[0]}"
        wait "${GW_PID[0]}" 2>/dev/null || true
        kills=$((kills + 1))
        launch_gateway 0
        wait "$running" || true
        out=$(cat "$WORK/sale.out")
        await_gateway 0
    else
        out=$(sale "$amount" "$index")
    fi
    id=$(printf '%s' "$out" | python3 -c 'import json,sys
try:
    j = json.loads(sys.stdin.read())
    print(j["transactionID"] if j.get("status") == "approved" and j.get("transactionID") else "")
except Exception:
    print("")')
    if [ -n "$id" ]; then
        approved=$((approved + 1))
        echo "$id" >>"$WORK/approved.ids"
    else
        failed=$((failed + 1))
    fi
done

# Whatever a killed instance left unfinished in the journal is settled at the gateway.
MPOS_PASSWORD="$PASSWORD" "$MPOS" journal finish --journal "$WORK/journal.sqlite" \
    --gateway "http://127.0.0.1:${GW_PORT[1]}" --user "$USER_ID" >/dev/null 2>>"$WORK/sales.err" || true

psql_soak "SELECT id FROM payment_transaction WHERE kind = 'sale' AND status IN ('approved', 'partiallyApproved')" \
    | sort >"$WORK/ledger.ids"
sort -o "$WORK/approved.ids" "$WORK/approved.ids"
ledger_approved=$(wc -l <"$WORK/ledger.ids")
lost=$(comm -23 "$WORK/approved.ids" "$WORK/ledger.ids" | wc -l)
extra=$(comm -13 "$WORK/approved.ids" "$WORK/ledger.ids" | wc -l)
doubles=$(psql_soak "SELECT count(*) - count(DISTINCT amount_requested) FROM payment_transaction
    WHERE kind = 'sale' AND status IN ('approved', 'partiallyApproved')")
echo "sales=$N approved=$approved failed=$failed kills=$kills ledger_approved=$ledger_approved doubles=$doubles lost=$lost extra=$extra"
if [ "$lost" != 0 ] || [ "$extra" != 0 ] || [ "$doubles" != 0 ] || [ "$approved" != "$ledger_approved" ]; then
    echo "MISMATCH: the ledger differs from what the CLI reported" >&2
    exit 1
fi
