#!/usr/bin/env python3
"""sample.py SOCK SYSTEM_MAP PERIOD COUNT: every PERIOD s ask QEMU's HMP monitor at SOCK for CPU 0's
RIP (info registers), print host time, RIP and the kernel symbol it falls in."""
import bisect, re, socket, sys, time

sock_path, smap, period, count = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
addrs, names = [], []
for line in open(smap):
    a, t, n = line.split()[:3]
    if t in "tTwW":
        addrs.append(int(a, 16)); names.append(n)
order = sorted(range(len(addrs)), key=addrs.__getitem__)
addrs = [addrs[i] for i in order]; names = [names[i] for i in order]

def sym(rip):
    i = bisect.bisect_right(addrs, rip) - 1
    return names[i] if i >= 0 and rip - addrs[i] < 0x100000 else "?"

t0 = time.time()
for _ in range(count):
    time.sleep(period)
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(sock_path); s.settimeout(5)
        buf = b""
        s.sendall(b"info registers\n")
        end = time.time() + 3
        while b"RIP=" not in buf or b"EFER" not in buf:
            if time.time() > end: break
            try: buf += s.recv(65536)
            except socket.timeout: break
        s.close()
    except OSError:
        break
    m = re.search(rb"RIP=([0-9a-f]+)", buf)
    h = re.search(rb"HLT=(\d)", buf)
    if m:
        rip = int(m.group(1), 16)
        print(f"{time.time() - t0:7.1f} {rip:016x} hlt={h.group(1).decode() if h else '?'} {sym(rip)}", flush=True)
