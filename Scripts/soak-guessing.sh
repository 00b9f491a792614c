#!/usr/bin/env bash
# N CLI sales (SALES, 100 by default) through `mpos gateway serve` and `mpos reader emulate` while curl guesses the
# merchant user's password from other loopback addresses until it is locked.
set -u
cd "$(dirname "$0")/.."
mpos=${1:-.build/debug/mpos}
work=$(mktemp -d)
export XDG_CONFIG_HOME=$work/config
$mpos gateway serve --port 0 --db $work/gw.sqlite --session-lifetime 2 > $work/gw.out 2>$work/gw.err &
gw=$!
for i in $(seq 1 100); do grep -q "^listening on" $work/gw.out && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' $work/gw.out)
user=$(awk '$1=="user"{print $2}' $work/gw.out); pass=$(awk '$1=="password"{print $2}' $work/gw.out)
printf '%s\n' "$pass" > $work/pw; chmod 600 $work/pw
$mpos reader emulate --port 0 --discovery-port 0 > $work/rd.out 2>&1 &
rd=$!
for i in $(seq 1 100); do grep -q "^listening on" $work/rd.out && break; sleep 0.1; done
rport=$(sed -n 's/^listening on 127.0.0.1://p' $work/rd.out | head -1)
approved=0; other=0
# The terminal is set up first: its first login registers the device.
$mpos sale --amount 2.22 --json --gateway $url --user $user --password-file $work/pw --journal $work/journal.sqlite --reader 127.0.0.1:$rport > /dev/null 2>&1 || echo "first sale failed"
for n in $(seq 2 11); do
  curl -s -o /dev/null --interface 127.0.0.$n -H 'Content-Type: application/json' \
    -d "{\"user\":\"$user\",\"password\":\"first$n\"}" $url/v1/auth/login
done
(
  for n in $(seq 12 60); do
    curl -s -o /dev/null --interface 127.0.0.$n -H 'Content-Type: application/json' \
      -d "{\"user\":\"$user\",\"password\":\"guess$n\"}" $url/v1/auth/login
    sleep 0.5
  done
) &
guesser=$!
for i in $(seq 1 ${SALES:-100}); do
  amount=$(printf "%d.%02d" $((2 + i % 7)) $((i % 100)))
  out=$($mpos sale --amount $amount --json --gateway $url --user $user --password-file $work/pw --journal $work/journal.sqlite --reader 127.0.0.1:$rport 2>$work/err.$i)
  if echo "$out" | grep -q '"status" *: *"approved"'; then approved=$((approved+1)); else other=$((other+1)); echo "sale $i: $(head -c 300 $work/err.$i) $(echo $out | head -c 200)"; fi
  if [ $((i % 25)) -eq 0 ]; then sleep 2.5; fi
done
wait $guesser
locked=$(curl -s -H 'Content-Type: application/json' -d "{\"user\":\"$user\",\"password\":\"$pass\"}" $url/v1/auth/login)
echo "sales=${SALES:-100} approved=$approved other=$other; right password now: $locked"
stat -c "device credential %a %n" $work/journal.sqlite.device
kill $gw $rd; wait 2>/dev/null; rm -rf $work
