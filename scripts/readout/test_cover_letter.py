"""Unit tests of cover_letter.py, which fills in the cover letter of git format-patch
--cover-letter for scripts/series.sh and scripts/mbox.sh."""
import contextlib
import io
import os
import tempfile
import unittest

from readout import cli, cover_letter

COVER = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A Developer <dev@example.org>
Date: Fri, 4 Dec 2026 19:00:00 +0000
Subject: [PATCH bpf-next 0/2] *** SUBJECT HERE ***

*** BLURB HERE ***

A Developer (2):
  one
  two

 a.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

--
2.39.5

"""
PATCH = """From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: A Developer <dev@example.org>
Date: Fri, 4 Dec 2026 19:00:01 +0000
Subject: [PATCH bpf-next 1/2] one

The text of a patch may quote *** SUBJECT HERE *** and *** BLURB HERE ***.
---
"""
# The cover letter as format-patch --stdout writes it: its From line is the commit id.
COVER_IN_MBOX = COVER.replace("From " + "0" * 40, "From " + "2" * 40, 1)
TEXT = "bpf: the subject\n\nThe motivation.\n\nOne table.\n\n"
CC = "Cc: a@example.org\nCc: b@example.org\n"


class Fill(unittest.TestCase):
    def test_cover_letter_alone(self):
        out = cover_letter.fill(COVER, TEXT, CC)
        self.assertIn("Subject: [PATCH bpf-next 0/2] bpf: the subject\n", out)
        self.assertIn("\n\nThe motivation.\n\nOne table.\n\nCc: a@example.org\nCc: b@example.org\n\nA Developer (2):", out)
        self.assertIn("\nDate: Thu, 1 Jan 2026 00:00:00 +0000\n", out)
        self.assertNotIn("***", out)
        self.assertTrue(out.endswith("A Developer (2):\n  one\n  two\n\n a.c | 2 +-\n"
                                     " 1 file changed, 1 insertion(+), 1 deletion(-)\n\n--\n2.39.5\n\n"))

    def test_no_cc(self):
        out = cover_letter.fill(COVER, TEXT, "\n")
        self.assertIn("\n\nThe motivation.\n\nOne table.\n\nA Developer (2):", out)

    def test_the_rest_of_an_mbox_is_kept_byte_for_byte(self):
        mbox = COVER_IN_MBOX + PATCH
        out = cover_letter.fill(mbox, TEXT, CC)
        self.assertTrue(out.endswith(PATCH), "the patch after the cover letter changed")
        # the cover letter takes the date of its latest patch
        self.assertEqual(out.count("Date: Fri, 4 Dec 2026 19:00:01 +0000"), 2)

    def test_dated_as_the_latest_patch(self):
        later = PATCH.replace("Fri, 4 Dec 2026 19:00:01", "Sun, 6 Dec 2026 07:30:00")
        out = cover_letter.fill(COVER, TEXT, CC, [later, PATCH])
        self.assertIn("\nDate: Sun, 6 Dec 2026 07:30:00 +0000\n", out)
        self.assertNotIn("Thu, 1 Jan 2026", out)

    def test_placeholders_only_in_a_later_message(self):
        mbox = COVER_IN_MBOX.replace("*** SUBJECT HERE ***", "done").replace("*** BLURB HERE ***", "done") + PATCH
        with self.assertRaisesRegex(cover_letter.Error, "no cover letter placeholders"):
            cover_letter.fill(mbox, TEXT, CC)


class Main(unittest.TestCase):
    def run_main(self, *args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = cli.main(["cover-letter", *args])
        return rc, err.getvalue()

    def test_fills_the_file_in_place(self):
        with tempfile.TemporaryDirectory() as d:
            paths = [os.path.join(d, n) for n in ("0000-cover-letter.patch", "text", "cc")]
            for path, content in zip(paths, (COVER, TEXT, CC)):
                with open(path, "w") as f:
                    f.write(content)
            self.assertEqual(self.run_main(*paths), (0, ""))
            with open(paths[0]) as f:
                self.assertEqual(f.read(), cover_letter.fill(COVER, TEXT, CC))

    def test_errors_are_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "missing")
            rc, err = self.run_main(missing, missing, missing)
            self.assertEqual((rc, err), (1, "readout.py cover-letter: error: %s: No such file or directory\n" % missing))
            done = os.path.join(d, "done")
            with open(done, "w") as f:
                f.write("From: nobody\n\nno placeholders\n")
            rc, err = self.run_main(done, done, done)
            self.assertEqual((rc, err), (1, "readout.py cover-letter: error: %s: no cover letter placeholders in the first message\n" % done))
            with open(done) as f:
                self.assertEqual(f.read(), "From: nobody\n\nno placeholders\n")
            self.assertEqual(self.run_main(done)[0], 2)


if __name__ == "__main__":
    unittest.main()
