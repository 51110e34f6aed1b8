"""What the unit tests of the lab's Python scripts share: a git that ignores the machine's
configuration, and a writer of files in a scratch tree."""

import os
import subprocess

ENV = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")

# trials.csv of a compare record: two trials of a full map at 64 possible CPUs (tests add rows)
TRIALS_64 = """\
clock,variant,trial,possible_cpus,family,benchmark,value,unit
icount,base,1,64,hashmap,full,0.350,M/s
icount,series,1,64,hashmap,full,2.900,M/s
icount,base,2,64,hashmap,full,0.352,M/s
icount,series,2,64,hashmap,full,2.960,M/s
"""


def git(root, *args, stdin=None, env=None):
    """git -C ROOT ARGS..., its output without the final newline; fails on a non-zero exit."""
    return subprocess.run(["git", "-C", root, *args], check=True, capture_output=True, text=True,
                          env=env or ENV, input=stdin).stdout.strip()


def write(root, path, text):
    """Write TEXT to ROOT/PATH, making the folders it needs."""
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)
