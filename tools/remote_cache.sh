#!/usr/bin/env bash
# A Bazel HTTP remote cache on loopback: nginx with WebDAV PUT over a directory.
#
#   tools/remote_cache.sh start   # prints the --remote_cache URL
#   tools/remote_cache.sh stop
#
# Bazel's HTTP cache protocol is plain GET/PUT of /ac/<hash> and /cas/<hash>; nginx's
# dav module stores PUT bodies as files. Environment: TINYPTE_REMOTE_CACHE_PORT (9092),
# TINYPTE_REMOTE_CACHE_DIR (~/.cache/tinypte/remote-cache).
set -euo pipefail

port=${TINYPTE_REMOTE_CACHE_PORT:-9092}
store=${TINYPTE_REMOTE_CACHE_DIR:-$HOME/.cache/tinypte/remote-cache}
prefix=$store/.nginx
pidfile=$prefix/nginx.pid

start() {
  command -v nginx >/dev/null || { echo "remote_cache: nginx not installed (./tools/setup.sh)" >&2; exit 1; }
  mkdir -p "$store/ac" "$store/cas" "$prefix/tmp" "$prefix/logs"
  stop_quietly
  # Started as root, nginx's workers would run as nobody and could not write the store.
  local user_line=""
  ((EUID == 0)) && user_line="user root;"
  cat >"$prefix/nginx.conf" <<CONF
$user_line
worker_processes 1;
pid $pidfile;
error_log $prefix/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $prefix/tmp;
  proxy_temp_path $prefix/tmp;
  fastcgi_temp_path $prefix/tmp;
  uwsgi_temp_path $prefix/tmp;
  scgi_temp_path $prefix/tmp;
  server {
    listen 127.0.0.1:$port;
    root $store;
    client_max_body_size 0;
    location / {
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw;
    }
  }
}
CONF
  nginx -p "$prefix" -c "$prefix/nginx.conf"
  for _ in $(seq 50); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "http://127.0.0.1:$port"
      return 0
    fi
    sleep 0.1
  done
  echo "remote_cache: nginx did not start; see $prefix/logs/error.log" >&2
  exit 1
}

stop_quietly() {
  if [[ -f "$pidfile" ]]; then
    kill "$(cat "$pidfile")" 2>/dev/null || true
    rm -f "$pidfile"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop_quietly ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
