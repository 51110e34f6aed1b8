"""Fill in the cover letter git format-patch --cover-letter writes (scripts/series.sh, mbox.sh).

  scripts/readout.py cover-letter FILE TEXT CC_FILE [PATCH...]

In the first message of FILE (the cover letter, alone or at the head of a --stdout mbox), put the
subject and text of TEXT (its first line: the subject) and the Cc lines of CC_FILE in place of
git's placeholders, and date it as the latest of its patches (the Date: of FILE's other messages
and of the PATCH files), so that the output does not depend on when it was made and the cover
letter is not older than its patches (a fixed date when there are none). The rest of FILE is kept
byte for byte."""
import email.utils
import re
import sys

from . import cli

SUBJECT, BLURB = "*** SUBJECT HERE ***", "*** BLURB HERE ***"
FIXED_DATE = "Date: Thu, 1 Jan 2026 00:00:00 +0000"
# A message of an mbox starts with git's "From <commit id> Mon Sep 17 00:00:00 2001" line.
MESSAGE_START = re.compile(r"^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$", re.M)


class Error(cli.Error):
    pass


def latest_date(messages):
    """The latest "Date: ..." header line of the messages (texts), or None."""
    dates = []
    for message in messages:
        header = message.split("\n\n", 1)[0]
        m = re.search(r"^Date: (.*)$", header, flags=re.M)
        if m:
            dates.append((email.utils.parsedate_to_datetime(m.group(1)), m.group(0)))
    return max(dates)[1] if dates else None


def fill(mbox, text, cc, patches=()):
    """mbox with its first message filled in from text (subject, then the blurb) and cc, dated
    as the latest of its other messages and of patches (texts)."""
    subject, _, blurb = text.rstrip("\n").partition("\n")
    cc = cc.rstrip("\n")
    blurb = blurb.strip("\n") + ("\n\n" + cc if cc else "")
    starts = [m.start() for m in MESSAGE_START.finditer(mbox)]
    end = starts[1] if len(starts) > 1 else len(mbox)
    first, rest = mbox[:end], mbox[end:]
    others = [rest[a - end:b - end] for a, b in zip(starts[1:], starts[2:] + [len(mbox)])]
    date = latest_date(others + list(patches)) or FIXED_DATE
    if SUBJECT not in first or BLURB not in first:
        raise Error("no cover letter placeholders in the first message")
    first = first.replace(SUBJECT, subject.strip(), 1)
    first = first.replace(BLURB, blurb, 1)
    first = re.sub(r"^Date: .*$", lambda _: date, first, count=1, flags=re.M)
    return first + rest


def main(argv, prog):
    if len(argv) < 3:
        return cli.usage_error(prog, "expected FILE TEXT CC_FILE [PATCH...]")
    path, text_path, cc_path = argv[0:3]
    try:
        with open(path) as f:
            mbox = f.read()
        with open(text_path) as f:
            text = f.read()
        with open(cc_path) as f:
            cc = f.read()
        patches = []
        for patch_path in argv[3:]:
            with open(patch_path) as f:
                patches.append(f.read())
        out = fill(mbox, text, cc, patches)
    except Error as e:
        raise Error("%s: %s" % (path, e)) from None
    with open(path, "w") as f:
        f.write(out)
    return 0
