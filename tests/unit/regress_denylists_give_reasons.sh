#!/bin/bash
# Every entry of a DENYLIST names its reason, as upstream's do: `test[/subtest]  # reason`; so does
# every selftests file a base cannot build (config/<base>/selftests-unbuildable).
# Plant: a DENYLIST entry without its reason.
# Plant command: for f in config/*/DENYLIST; do echo planted_test >>"$f"; done
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

regress_denylists_give_reasons() {
	lists_give_reasons '[^#[:space:]]+' "$LAB_ROOT"/config/*/DENYLIST* "$LAB_ROOT"/config/*/selftests-unbuildable
}

run_test regress_denylists_give_reasons "$@"
