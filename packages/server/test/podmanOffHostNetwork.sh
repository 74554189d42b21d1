#!/usr/bin/env bash
# podman as podman-compose 1.0 calls it in the tests (--podman-path), with every container in
# slirp4netns, podman's user-mode network (ports are published through it), instead of a bridge
# network of the project's. A bridge adds an interface and an address to the machine's network,
# which the browsers of journeys running beside the test take for a network change and abort
# their requests (net::ERR_NETWORK_CHANGED). podman-compose 1.0 always adds --net for its own
# network, even beside network_mode: the network commands are answered here, and --net dropped.
set -euo pipefail

if [ "${1:-}" = network ]; then exit 0; fi
if [ "${1:-}" != run ] && [ "${1:-}" != create ]; then exec podman "$@"; fi

args=("$1" --network slirp4netns)
shift
while [ $# -gt 0 ]; do
  case "$1" in
    --net | --network-alias) shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
exec podman "${args[@]}"
