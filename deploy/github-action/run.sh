#!/usr/bin/env bash
# The action's one step: the CLI from the installation itself (npx fetches its package from
# WHARF_URL, so it is always the server's own version), the inputs as the CLI's variables.
set -euo pipefail

wharf() { npx --yes "${WHARF_URL%/}/cli/wharf-cli.tgz" "$@"; }
# A field of the event that started the run (pull_request: its action and number).
event() {
  node -e 'const found = process.argv[1].split(".").reduce((at, key) => at?.[key], require(process.env.GITHUB_EVENT_PATH)); console.log(found ?? "")' "$1"
}

command="${WHARF_COMMAND:-auto}"
if [ "$command" = auto ]; then
  command=upload
  if [ "${GITHUB_EVENT_NAME:-}" = pull_request ] && [ "$(event action)" = closed ]; then command=delete-preview; fi
fi

case "$command" in
  delete-preview)
    wharf branch delete "pr-$(event pull_request.number)"
    ;;
  upload)
    args=(upload "${WHARF_FOLDER:-./dist}" --json)
    if [ -n "${WHARF_BRANCH:-}" ]; then args+=(--branch "$WHARF_BRANCH"); fi
    if [ "${WHARF_COMMENT:-false}" = true ]; then args+=(--comment); fi
    answer="$(wharf "${args[@]}")"
    printf '%s\n' "$answer" | node -e '
      let text = "";
      process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
        const answer = JSON.parse(text);
        const lines = [`release=${answer.release._id}`, `url=${answer.branches[0]?.url ?? ""}`];
        for (const branch of answer.branches) console.log(`Deployed to ${branch.name}: ${branch.url}`);
        if (process.env.GITHUB_OUTPUT) require("node:fs").appendFileSync(process.env.GITHUB_OUTPUT, `${lines.join("\n")}\n`);
      });'
    ;;
  *)
    echo "command must be upload, delete-preview or auto; got $command" >&2
    exit 2
    ;;
esac
