# Sourced by every script: the repository root as working directory, the project's tools first
# on PATH, trunk offline. Tools live in .tools/ (git-ignored), installed by scripts/setup.sh.
KEYPLAN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KEYPLAN_ROOT
export PATH="$KEYPLAN_ROOT/.tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# trunk never downloads a tool (nor checks for updates) when offline.
export TRUNK_OFFLINE=true
cd "$KEYPLAN_ROOT"

# Prints a step heading, so long logs (CI) read as a list of steps.
step() { printf '\n==> %s\n' "$*"; }

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
