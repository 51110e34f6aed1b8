# The bench tests' helpers under their old name, for scripts/test-htab-mem.sh until it sources
# ktap.sh itself.
# shellcheck shell=bash
# shellcheck source-path=SCRIPTDIR source=ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"
