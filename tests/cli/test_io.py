#!/usr/bin/env python3
"""CLI tests of the files people have: instances on standard input, tours on
standard output, list and CSV tours, the tour in the JSON, gzip-compressed
instances and tours (made here from data/berlin52.tsp with Python's gzip
module).

Usage: test_io.py PATH/TO/warptour   (ctest passes it; WT_DATA points at data/)
"""
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import unittest

WARPTOUR = None
DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")
N = 52


def run(*args, stdin=None):
    """Runs warptour (solve with --algorithm 2opt unless one is named: fast
    and deterministic); stdin is bytes fed to it, else /dev/null."""
    if args and args[0] == "solve" and "--algorithm" not in args:
        args = (*args, "--algorithm", "2opt")
    r = subprocess.run([WARPTOUR, *args], input=stdin if stdin is not None else b"",
                       capture_output=True, timeout=300)
    r.out = r.stdout.decode("utf-8", "replace")
    r.err = r.stderr.decode("utf-8", "replace")
    return r


def sanitized():
    """Whether WARPTOUR is built with AddressSanitizer, whose shadow memory
    needs far more address space than any RLIMIT_AS a test can set."""
    with open(WARPTOUR, "rb") as f:
        return b"__asan_init" in f.read()


def limit_as(size):
    """A preexec_fn that limits the child's address space (ulimit -v)."""
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (size, size))


def run_fed(args, head, lines, limit):
    """Runs warptour with RLIMIT_AS limit, writing head and then the chunks
    of the iterator lines to its standard input until it stops reading."""
    p = subprocess.Popen([WARPTOUR, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit_as(limit))

    def feed():
        try:
            p.stdin.write(head)
            for chunk in lines:
                p.stdin.write(chunk)
        except (BrokenPipeError, OSError):
            pass
        try:
            p.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    with p.stdout, p.stderr:
        out = p.stdout.read()
        err = p.stderr.read()
    p.wait(timeout=300)
    writer.join(timeout=60)
    p.out = out.decode("utf-8", "replace")
    p.err = err.decode("utf-8", "replace")
    return p


HUGE_HEAD = b"NAME : huge\nTYPE : TSP\nDIMENSION : 1000000000\nEDGE_WEIGHT_TYPE : EUC_2D\n" \
            b"NODE_COORD_SECTION\n"


def berlin_bytes():
    with open(BERLIN, "rb") as f:
        return f.read()


def is_tour(cities):
    return sorted(cities) == list(range(1, N + 1))


def tsplib_tour(text):
    lines = text.split("\n")
    start = lines.index("TOUR_SECTION") + 1
    cities = []
    for l in lines[start:]:
        if l.strip() == "-1":
            break
        cities.append(int(l))
    return cities


def printable(text):
    """Whether a message holds only printable ASCII and line ends."""
    return all(c == "\n" or " " <= c <= "~" for c in text)


class Io(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, data):
        p = self.path(name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    def length_of(self, r):
        for l in r.out.splitlines() + r.err.splitlines():
            if l.startswith("length"):
                return int(l.split()[1])
        self.fail("no length line in " + r.out + r.err)

    # ------------------------------------------------------------ stdin

    def test_solve_info_check_read_stdin(self):
        plain = run("solve", BERLIN)
        r = run("solve", "-", stdin=berlin_bytes())
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("instance  berlin52 (52 cities", r.out)
        self.assertEqual(self.length_of(r), self.length_of(plain))
        r = run("info", "-", stdin=berlin_bytes())
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("file      <stdin>", r.out)
        self.assertIn("cities    52", r.out)
        r = run("info", "-", "--json", stdin=berlin_bytes())
        self.assertEqual(json.loads(r.out)["file"], "<stdin>")
        tour = self.path("b.tour")
        self.assertEqual(run("solve", BERLIN, "--output", tour).returncode, 0)
        r = run("check", "-", tour, stdin=berlin_bytes())
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("valid tour of berlin52", r.out)

    def test_stdin_point_file(self):
        pts = "".join("%d %d\n" % (i % 7, i * 3 % 11) for i in range(20)).encode()
        r = run("solve", "-", stdin=pts)
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("20 cities, EUC_2D_REAL", r.out)

    def test_stdin_errors_name_stdin(self):
        bad = b"NAME : x\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n" \
              b"NODE_COORD_SECTION\n1 0 0\n2 zz 1\n3 1 1\nEOF\n"
        r = run("info", "-", stdin=bad)
        self.assertEqual(r.returncode, 3)
        self.assertRegex(r.err, r"^warptour: <stdin>:7: ")
        self.assertNotIn("/dev/stdin", r.err)
        r = run("solve", "-", stdin=b"")
        self.assertEqual(r.returncode, 3)
        self.assertIn("<stdin>", r.err)

    def test_stdin_is_bounded_like_a_pipe(self):
        # A header of 52 cities, then far more bytes than they can need.
        head = berlin_bytes().split(b"NODE_COORD_SECTION")[0] + b"NODE_COORD_SECTION\n"
        r = run("info", "-", stdin=head + b"1 1 1\n" * 600000)
        self.assertEqual(r.returncode, 3)
        self.assertIn("<stdin>: longer than", r.err)

    # ----------------------------------------------------------- output

    def test_output_stdout_tsplib(self):
        r = run("solve", BERLIN, "--output", "-")
        self.assertEqual(r.returncode, 0, r.err)
        self.assertTrue(r.out.startswith("NAME : berlin52\n"), r.out[:100])
        self.assertTrue(r.out.endswith("-1\nEOF\n"))
        self.assertTrue(is_tour(tsplib_tour(r.out)))
        # The report went to stderr, naming where the tour went.
        self.assertIn("length    ", r.err)
        self.assertIn("tour      <stdout>", r.err)
        # What stdout got is a tour that check takes.
        tour = self.write("s.tour", r.stdout)
        c = run("check", BERLIN, tour)
        self.assertEqual(c.returncode, 0, c.err)
        self.assertIn("length %d" % self.length_of(r), c.out)

    def test_stdin_to_stdout_list_quiet(self):
        r = run("solve", "-", "--output", "-", "--output-format", "list", "--quiet",
                stdin=berlin_bytes())
        self.assertEqual(r.returncode, 0, r.err)
        self.assertEqual(r.err, "")
        self.assertTrue(is_tour([int(l) for l in r.out.splitlines()]))

    def test_list_and_csv_files(self):
        ref = self.path("ref.tour")
        self.assertEqual(run("solve", BERLIN, "--output", ref).returncode, 0)
        with open(ref) as f:
            want = tsplib_tour(f.read())
        lst, csv = self.path("t.list"), self.path("t.csv")
        r = run("solve", BERLIN, "--output", lst, "--output-format", "list")
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("tour      " + lst, r.out)
        with open(lst) as f:
            self.assertEqual([int(l) for l in f.read().splitlines()], want)
        r = run("solve", BERLIN, "--output", csv, "--output-format", "csv")
        self.assertEqual(r.returncode, 0, r.err)
        with open(csv) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "city")
        self.assertEqual([int(l) for l in lines[1:]], want)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["ref.tour", "t.csv", "t.list"])
        # A symbolic link is written through, as TSPLIB tours are.
        link = self.path("link.csv")
        os.symlink(csv, link)
        self.assertEqual(run("solve", BERLIN, "--output", link, "--output-format",
                             "list").returncode, 0)
        self.assertTrue(os.path.islink(link))
        with open(csv) as f:
            self.assertEqual([int(l) for l in f.read().splitlines()], want)

    def test_json_tour(self):
        tour = self.path("j.tour")
        r = run("solve", BERLIN, "--json", "--json-tour", "--output", tour)
        self.assertEqual(r.returncode, 0, r.err)
        j = json.loads(r.out)
        self.assertTrue(is_tour(j["tour"]))
        with open(tour) as f:
            self.assertEqual(j["tour"], tsplib_tour(f.read()))
        r = run("solve", BERLIN, "--json")
        self.assertNotIn("tour", json.loads(r.out))

    def test_option_errors(self):
        for args, why in [
                (("--json", "--output", "-"), "--json and --output -"),
                (("--json-tour",), "give --json too"),
                (("--output-format", "list"), "give --output too"),
                (("--output", "x", "--output-format", "xml"), "'tsplib', 'list' or 'csv'")]:
            r = run("solve", BERLIN, *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(why, r.err)
            self.assertEqual(r.out, "")
        r = run("solve", "--help")
        for opt in ["--output-format", "--json-tour", "'-'"]:
            self.assertIn(opt, r.out)

    def test_file_size_limit_is_a_failed_write(self):
        # Issue 39: under ulimit -f the tour's write fails with EFBIG, which
        # is reported like a full disk: the old tour kept, no .part left,
        # the report printed, exit 1 (not killed by SIGXFSZ).
        tour = self.write("b.tour", b"old\n")
        limit = 200  # bytes; berlin52's tour takes about 250

        def small_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        r = subprocess.run([WARPTOUR, "solve", BERLIN, "--algorithm", "2opt", "--output", tour],
                           capture_output=True, text=True, timeout=300, preexec_fn=small_files)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(tour + ": write failed: File too large", r.stderr)
        self.assertIn("length    ", r.stdout)
        self.assertEqual(os.listdir(self.tmp.name), ["b.tour"])
        with open(tour) as f:
            self.assertEqual(f.read(), "old\n")

    # ------------------------------------- output paths, before the search

    def refused(self, *args, code=1):
        """Runs an ILS that would search 60 s and asserts that it is refused
        at once (a loose bound: well under the limit on a loaded machine),
        with exit status code; returns stderr."""
        inst = self.path("u3000.tsp")
        if not os.path.exists(inst):
            self.assertEqual(run("gen", "uniform", "3000", "--output", inst).returncode, 0)
        t0 = time.monotonic()
        r = subprocess.run([WARPTOUR, "solve", inst, "--algorithm", "ils", "--backend", "cpu",
                            "--time-limit", "60", *args], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, code, (args, r.stderr))
        self.assertLess(time.monotonic() - t0, 20, args)
        self.assertEqual(r.stdout, "")
        return r.stderr

    def test_bad_output_paths_refused_before_the_search(self):
        # Issue 39: each of these was found only after the search.
        missing = self.path("nofolder/t.tour")
        dangling = self.path("dangling.tour")
        os.symlink(missing, dangling)
        part = self.path("p.tour")
        os.mkdir(part + ".part")
        folder = self.path("folder")
        os.mkdir(folder)
        for args, path, why in [
                (["--output", dangling], dangling, "it links to " + missing),
                (["--svg", dangling], dangling, "it links to " + missing),
                (["--output", part], part, part + ".part, where it is written first, "
                 "is a folder"),
                (["--output", part, "--output-format", "csv"], part, "is a folder"),
                (["--output", folder], folder, "it is a folder"),
                (["--svg", folder], folder, "it is a folder"),
                (["--output", missing], missing, "No such file or directory"),
                (["--svg", missing], missing, "No such file or directory")]:
            err = self.refused(*args)
            self.assertIn("warptour: " + path + ": ", err)
            self.assertIn(why, err)
        self.assertEqual(sorted(os.listdir(self.tmp.name)),
                         ["dangling.tour", "folder", "p.tour.part", "u3000.tsp"])
        # A dangling link whose target can be made is written through.
        made = self.path("made.tour")
        os.symlink(made, self.path("link.tour"))
        r = run("solve", BERLIN, "--output", self.path("link.tour"), "--quiet")
        self.assertEqual(r.returncode, 0, r.err)
        self.assertEqual(run("check", BERLIN, made).returncode, 0)

    def test_fifo_output(self):
        # A FIFO that no process reads is refused at once (its open() would
        # block after the search); one with a reader gets the tour.
        fifo = self.path("t.fifo")
        os.mkfifo(fifo)
        err = self.refused("--output", fifo)
        self.assertIn("warptour: " + fifo + ": cannot write: a FIFO that no process reads", err)
        # A reader that holds the FIFO open; berlin52's tour fits its buffer.
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            r = run("solve", BERLIN, "--output", fifo, "--quiet")
            self.assertEqual(r.returncode, 0, r.err)
            got = os.read(fd, 1 << 16)
        finally:
            os.close(fd)
        self.assertTrue(is_tour(tsplib_tour(got.decode())))

    # ------------------------------------------------------------- gzip

    def test_gzip_instance(self):
        plain = run("solve", BERLIN)
        gz = self.write("berlin52.tsp.gz", gzip.compress(berlin_bytes()))
        # Told by its bytes, not its name.
        odd = self.write("berlin52.txt", gzip.compress(berlin_bytes()))
        for p in [gz, odd]:
            r = run("solve", p)
            self.assertEqual(r.returncode, 0, r.err)
            self.assertEqual(self.length_of(r), self.length_of(plain))
            self.assertIn("berlin52 (52 cities, EUC_2D)", r.out)
        r = run("solve", "-", stdin=gzip.compress(berlin_bytes()))
        self.assertEqual(r.returncode, 0, r.err)
        self.assertEqual(self.length_of(r), self.length_of(plain))
        # Several members one after the other (cat a.gz b.gz) are one text.
        data = berlin_bytes()
        two = self.write("two.gz", gzip.compress(data[:500]) + gzip.compress(data[500:]))
        r = run("info", two)
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("cities    52", r.out)

    def test_gzip_point_file_and_tour(self):
        pts = "".join("%g,%g\n" % (i * 0.37 % 1, i * 0.61 % 1) for i in range(30)).encode()
        r = run("info", self.write("p.csv.gz", gzip.compress(pts)))
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("cities    30", r.out)
        tour = self.path("b.tour")
        self.assertEqual(run("solve", BERLIN, "--output", tour).returncode, 0)
        with open(tour, "rb") as f:
            tgz = self.write("b.tour.gz", gzip.compress(f.read()))
        r = run("check", BERLIN, tgz)
        self.assertEqual(r.returncode, 0, r.err)
        self.assertIn("valid tour", r.out)

    def test_corrupt_gzip(self):
        good = gzip.compress(berlin_bytes())
        cases = {
            "garbage.tsp.gz": good[:10] + bytes(range(256)) * 4,
            "truncated.tsp.gz": good[: len(good) // 2],
            "badcrc.tsp.gz": good[:-8] + b"\0\0\0\0" + good[-4:],
            "magic.tsp.gz": b"\x1f\x8b",
        }
        for name, data in cases.items():
            p = self.write(name, data)
            r = run("info", p)
            self.assertEqual(r.returncode, 3, name)
            self.assertIn(p + ": not a valid gzip file: ", r.err, name)
            self.assertTrue(printable(r.err), (name, r.err))
            self.assertEqual(r.err.count("\n"), 1, r.err)
        r = run("solve", "-", stdin=cases["truncated.tsp.gz"])
        self.assertEqual(r.returncode, 3)
        self.assertIn("<stdin>: not a valid gzip file: the compressed data ends early", r.err)

    def test_gzip_bomb_is_bounded(self):
        # 52 cities can need about 1 MiB; 60 MB decompressed from about 60 KB
        # is refused once past the bound, before it is all inflated.
        head = berlin_bytes().split(b"NODE_COORD_SECTION")[0] + b"NODE_COORD_SECTION\n"
        bomb = self.write("bomb.tsp.gz", gzip.compress(head + b"1 1 1\n" * 10000000, 9))
        self.assertLess(os.path.getsize(bomb), 200000)
        r = run("info", bomb)
        self.assertEqual(r.returncode, 3)
        self.assertIn(bomb + ": longer than", r.err)
        # Binary bytes inside a gzip are refused as in a plain file.
        noise = self.write("noise.gz", gzip.compress(os.urandom(3 << 20)))
        r = run("info", noise)
        self.assertEqual(r.returncode, 3)
        self.assertTrue(printable(r.err), r.err)

    # ------------------------------------------- memory and a huge DIMENSION

    def test_huge_dimension_gzip_under_ulimit(self):
        # Issue 39: 54 MB of "1 1 1" after DIMENSION 1e9, in 1 GiB of address
        # space: refused at line 7, the first repeated id, not out of memory.
        if sanitized():
            self.skipTest("AddressSanitizer cannot run under RLIMIT_AS")
        path = self.write("huge.tsp.gz", gzip.compress(HUGE_HEAD + b"1 1 1\n" * 9000000, 1))
        r = subprocess.run([WARPTOUR, "info", path], capture_output=True, timeout=300,
                           preexec_fn=limit_as(1 << 30))
        err = r.stderr.decode("utf-8", "replace")
        self.assertEqual(r.returncode, 3, err)
        self.assertIn(path + ":7: node id 1 appears twice in NODE_COORD_SECTION", err)
        self.assertEqual(err.count("\n"), 1, err)

    def test_endless_pipe_after_huge_dimension(self):
        # Endless standard input after a header, in 1 GiB of address space:
        # each stops with its own message and status, never killed.
        if sanitized():
            self.skipTest("AddressSanitizer cannot run under RLIMIT_AS")

        def forever(line):
            chunk = line * 100000
            while True:
                yield chunk

        r = run_fed(["info", "-"], HUGE_HEAD, forever(b"1 1 1\n"), 1 << 30)
        self.assertEqual(r.returncode, 3, r.err)
        self.assertIn("<stdin>:7: node id 1 appears twice", r.err)
        # Good node lines past DIMENSION: refused at the first one too many.
        head = HUGE_HEAD.replace(b"1000000000", b"100000")

        def counting():
            k = 1
            while True:
                yield b"".join(b"%d 1 1\n" % i for i in range(k, k + 100000))
                k += 100000

        r = run_fed(["info", "-"], head, counting(), 1 << 30)
        self.assertEqual(r.returncode, 3, r.err)
        self.assertIn("<stdin>:100006: more node lines in NODE_COORD_SECTION than DIMENSION "
                      "100000", r.err)
        # Good node lines of a huge DIMENSION: memory follows the nodes
        # really sent, until the limit (128 MiB here) ends it cleanly.
        r = run_fed(["info", "-"], HUGE_HEAD, counting(), 128 << 20)
        self.assertEqual(r.returncode, 1, r.err)
        self.assertRegex(r.err, r"^warptour: <stdin>:\d+: out of memory\n$")


if __name__ == "__main__":
    WARPTOUR = sys.argv.pop(1)
    unittest.main(verbosity=2)
