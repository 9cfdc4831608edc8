#!/usr/bin/env bash
# A throwaway PostgreSQL 15 + PostGIS 3 cluster on 127.0.0.1, for the tests and benchmarks of the
# PostgreSQL store. Installs the Debian packages when missing, runs the server as a non-root user (initdb
# refuses root), on a free port, with its data in a temporary folder.
#
#   eval "$(scripts/postgres-cluster.sh start)"   # sets PINDROP_TEST_DATABASE_URL and PINDROP_PG_CLUSTER
#   scripts/postgres-cluster.sh stop "$PINDROP_PG_CLUSTER"
#   scripts/postgres-cluster.sh restart "$PINDROP_PG_CLUSTER"   # the shared-deployment test restarts it,
#   scripts/postgres-cluster.sh down|up "$PINDROP_PG_CLUSTER"   # and takes it away for a while
set -euo pipefail
BIN=/usr/lib/postgresql/15/bin

as_owner() {   # runs a command as the cluster's owner
    if [[ $(id -u) == 0 ]]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi
}

case "${1:-}" in
start)
    "$(dirname "$0")/need-packages.sh" postgresql-15 postgresql-15-postgis-3 >&2
    dir=$(mktemp -d /tmp/pindrop-pg.XXXXXX)
    [[ $(id -u) == 0 ]] && chown postgres "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$BIN/initdb -D $dir/data -U pindrop -A trust -E UTF8 --locale=C.UTF-8" >&2
    cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = on
max_connections = 200
shared_buffers = 256MB
EOF
    echo "$port" >"$dir/port"
    as_owner "$BIN/pg_ctl -D $dir/data -l $dir/log -w start" >&2
    as_owner "$BIN/createdb -h 127.0.0.1 -p $port -U pindrop pindrop" >&2
    echo "export PINDROP_TEST_DATABASE_URL=postgres://pindrop@127.0.0.1:$port/pindrop"
    echo "export PINDROP_PG_CLUSTER=$dir"
    ;;
stop)
    dir=${2:?the cluster folder}
    as_owner "$BIN/pg_ctl -D $dir/data -m immediate -w stop" >&2 || true
    rm -rf "$dir"
    ;;
restart)
    dir=${2:?the cluster folder}
    as_owner "$BIN/pg_ctl -D $dir/data -l $dir/log -m fast -w restart" >&2
    ;;
down)
    dir=${2:?the cluster folder}
    as_owner "$BIN/pg_ctl -D $dir/data -m fast -w stop" >&2
    ;;
up)
    dir=${2:?the cluster folder}
    as_owner "$BIN/pg_ctl -D $dir/data -l $dir/log -w start" >&2
    ;;
*)
    echo "usage: $0 start | stop DIR | restart DIR | down DIR | up DIR" >&2
    exit 64
    ;;
esac
