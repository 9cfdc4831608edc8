#!/usr/bin/env python3
"""Measures today's `pindrop` on the inputs of scripts/make-scaled-inputs.py as whole processes, one heavy
run at a time, and prints Markdown tables (docs/benchmarks.md).

For each GeoNames size: `pindrop import geonames FOLDER --index X` under `/usr/bin/time -v` (wall, CPU,
peak RSS, rows/s, index MB, and the wall time of each stage its progress bar names: it runs with stderr on
a pseudo-terminal so the bar is drawn); opening, as `pindrop search Paris --index X` 5 times (wall and peak
RSS; the median is reported); serving, `pindrop serve --index X --port 0`: start to first answer, RSS after
a few requests of each kind.
For each OSM size: `pindrop import osm FILE --index COPY` into a copy of the ×1 GeoNames index (wall, peak
RSS, index growth), a reverse geocode in the first tile, and `osmium fileinfo -e FILE` (best of 3) as the
baseline. A run that passes --cap-gb of RSS (whole process tree) or --timeout seconds, or leaves the machine
less than 1.5 GB available, is killed and recorded as failed, so the machine stays usable.

Usage: scripts/measure-scale-baseline.py [--pindrop .build/release/pindrop] [--inputs build/scale]
           [--geonames 1,10,50] [--osm 1,10,100] [--cap-gb 18] [--timeout 1800]
Writes INPUTS/baseline/*.json (one per run, with RSS sampled every 0.1 s) and INPUTS/baseline/summary.json.
Needs: apt time, osmium-tool, curl (installed when missing).
"""
import argparse
import json
import os
import pty
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_tools():
    missing = [pkg for tool, pkg in (("/usr/bin/time", "time"), ("osmium", "osmium-tool"))
               if shutil.which(tool) is None]
    if missing:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.check_call(sudo + ["apt-get", "update", "-q"], env=env)
        subprocess.check_call(sudo + ["apt-get", "install", "-y", "-q", *missing], env=env)


def tree_rss_kb(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
            except OSError:
                pass
    total, stack = 0, [root]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                m = re.search(r"VmRSS:\s+(\d+)", f.read())
                total += int(m.group(1)) if m else 0
        except OSError:
            pass
        stack += children.get(p, [])
    return total


def mem_available_kb():
    with open("/proc/meminfo") as f:
        return int(re.search(r"MemAvailable:\s+(\d+)", f.read()).group(1))


def watched(cmd, prefix, cap_gb, timeout):
    """Runs cmd (its stderr on a pseudo-terminal, stdout to PREFIX.stdout) under a watchdog: RSS of its
    process tree every 0.1 s, progress-bar stages with their start times, killed past the cap or timeout."""
    master, slave = pty.openpty()
    t0 = time.time()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        os.dup2(slave, 2)
        out = os.open(prefix + ".stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.execvp(cmd[0], cmd)
    os.close(slave)
    samples, stages, transcript, killed, killed_sent = [], [], [], None, False
    last, min_avail = 0.0, mem_available_kb()
    while True:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                data = os.read(master, 65536).decode("utf-8", "replace")
            except OSError:
                data = ""
            transcript.append(data)
            for m in re.finditer(r"\]\s+(\d+)% (\w+)", data):
                if not stages or stages[-1][0] != m.group(2):
                    stages.append((m.group(2), round(time.time() - t0, 2)))
        now = time.time()
        if now - last >= 0.1:
            last = now
            rss = tree_rss_kb(pid)
            samples.append((round(now - t0, 2), rss))
            avail = mem_available_kb()
            min_avail = min(min_avail, avail)
            if killed is None and rss > cap_gb * 1048576:
                killed = f"killed at {now - t0:.0f} s with {rss / 1048576:.1f} GB RSS (cap {cap_gb} GB)"
            elif killed is None and avail < 1.5 * 1048576:
                killed = f"killed at {now - t0:.0f} s with {rss / 1048576:.1f} GB RSS: the machine had < 1.5 GB left"
            elif killed is None and now - t0 > timeout:
                killed = f"killed after the {timeout:.0f} s timeout"
            if killed and not killed_sent:
                killed_sent = True
                os.killpg(pid, signal.SIGKILL)
        done, status, _ = os.wait4(pid, os.WNOHANG)
        if done:
            break
    while select.select([master], [], [], 0.1)[0]:
        try:
            data = os.read(master, 65536).decode("utf-8", "replace")
        except OSError:
            break
        if not data:
            break
        transcript.append(data)
    os.close(master)
    stderr = "".join(transcript)
    result = {"cmd": cmd, "wall_s": round(time.time() - t0, 2), "exit": os.waitstatus_to_exitcode(status),
              "killed": killed, "stages": stages, "samples": samples, "min_mem_available_kb": min_avail,
              "stdout": open(prefix + ".stdout").read(), "stderr": stderr[-20000:]}
    result.update(parse_time_v(stderr))
    with open(prefix + ".json", "w") as f:
        json.dump(result, f)
    return result


def parse_time_v(text):
    found = {}
    for key, pattern in (("elapsed", r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)"),
                         ("user_s", r"User time \(seconds\): ([\d.]+)"),
                         ("sys_s", r"System time \(seconds\): ([\d.]+)"),
                         ("max_rss_kb", r"Maximum resident set size \(kbytes\): (\d+)"),
                         ("major_faults", r"Major \(requiring I/O\) page faults: (\d+)")):
        m = re.search(pattern, text)
        if m:
            value = m.group(1)
            if key == "elapsed":
                parts = [float(x) for x in value.split(":")]
                value = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
            found[key] = float(value)
    return found


def stage_table(result):
    bounds = result["stages"] + [["end", result["wall_s"]]]
    rows = []
    for (stage, t), (_, t2) in zip(bounds, bounds[1:]):
        inside = [r for ts, r in result["samples"] if t <= ts <= t2]
        rows.append({"stage": stage, "start_s": t, "seconds": round(t2 - t, 2),
                     "max_rss_mb": round(max(inside) / 1024) if inside else None})
    return rows


def timed(cmd):
    """One short run under /usr/bin/time -v: (wall s, peak RSS MB, exit, stdout)."""
    run = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    t = parse_time_v(run.stderr)
    return t.get("elapsed"), t.get("max_rss_kb", 0) / 1024, run.returncode, run.stdout


def serve_figures(pindrop, index, home):
    """Start to first answer, then RSS (now and peak) after a few requests of each kind."""
    env = dict(os.environ, PINDROP_HOME=home)
    t0 = time.time()
    proc = subprocess.Popen([pindrop, "serve", "--index", index, "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, start_new_session=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"http://[^ ]+?:(\d+)/", line)
        if not m:
            return {"error": f"no port line: {line!r}"}
        base = f"http://127.0.0.1:{m.group(1)}"
        while True:
            try:
                urllib.request.urlopen(base + "/v1/status", timeout=5).read()
                break
            except OSError:
                if time.time() - t0 > 600:
                    return {"error": "no answer within 600 s"}
                time.sleep(0.02)
        first_answer = time.time() - t0
        queries = ["/v1/search?q=Paris", "/v1/search?q=Springfield%2C%20IL", "/v1/suggest?q=zur",
                   "/v1/suggest?q=hel", "/v1/reverse?lat=48.8584&lon=2.2945", "/v1/reverse?lat=60.17&lon=24.94",
                   "/v1/nearby?lat=40.7128&lon=-74.006&radius=5000", "/v1/search?q=Pariz"]
        latencies = {}
        for _ in range(5):
            for q in queries:
                t = time.time()
                urllib.request.urlopen(base + q, timeout=60).read()
                latencies.setdefault(q, []).append(time.time() - t)
        with open(f"/proc/{proc.pid}/status") as f:
            status = f.read()
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
        hwm = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))
        return {"first_answer_s": round(first_answer, 3), "rss_mb": round(rss / 1024), "peak_rss_mb": round(hwm / 1024),
                "request_ms_median": {q: round(statistics.median(v) * 1000, 2) for q, v in latencies.items()}}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pindrop", default=os.path.join(ROOT, ".build", "release", "pindrop"))
    p.add_argument("--inputs", default=os.path.join(ROOT, "build", "scale"))
    p.add_argument("--geonames", default="1,10,50")
    p.add_argument("--osm", default="1,10,100")
    p.add_argument("--cap-gb", type=float, default=18)
    p.add_argument("--timeout", type=float, default=1800)
    args = p.parse_args()
    ensure_tools()
    out = os.path.join(args.inputs, "baseline")
    idx = os.path.join(args.inputs, "index")
    home = os.path.join(args.inputs, "home")
    for d in (out, idx, home):
        os.makedirs(d, exist_ok=True)
    summary_path = os.path.join(out, "summary.json")
    summary = json.load(open(summary_path)) if os.path.exists(summary_path) else {}
    manifest = json.load(open(os.path.join(args.inputs, "manifest.json")))

    for size in [int(x) for x in args.geonames.split(",") if x]:
        key = f"geonames-x{size}"
        folder = os.path.join(args.inputs, key)
        index = os.path.join(idx, f"{key}.sqlite")
        print(f"{key}: import", file=sys.stderr)
        r = watched(["/usr/bin/time", "-v", args.pindrop, "import", "geonames", folder, "--index", index],
                    os.path.join(out, f"{key}-import"), args.cap_gb, args.timeout)
        rows = manifest["geonames"][f"x{size}"]["rows"]
        entry = {"rows": rows, "wall_s": r.get("elapsed", r["wall_s"]), "user_s": r.get("user_s"),
                 "sys_s": r.get("sys_s"), "peak_rss_mb": round(r.get("max_rss_kb", 0) / 1024),
                 "tree_peak_rss_mb": round(max((s for _, s in r["samples"]), default=0) / 1024),
                 "exit": r["exit"], "killed": r["killed"], "stages": stage_table(r),
                 "min_mem_available_gb": round(r["min_mem_available_kb"] / 1048576, 1),
                 "stdout": r["stdout"].strip(), "stderr_tail": r["stderr"][-1500:] if r["exit"] else ""}
        ok = r["exit"] == 0 and os.path.exists(index)
        if ok:
            entry["rows_per_s"] = round(rows / entry["wall_s"])
            entry["index_mb"] = round(os.path.getsize(index) / 1048576, 1)
            opens = [timed([args.pindrop, "search", "Paris", "--index", index]) for _ in range(5)]
            entry["search_cli_wall_s"] = [o[0] for o in opens]
            entry["search_cli_wall_median_s"] = statistics.median(o[0] for o in opens)
            entry["search_cli_peak_rss_mb"] = round(max(o[1] for o in opens))
            entry["search_cli_top"] = opens[0][3].splitlines()[:3]
            print(f"{key}: serve", file=sys.stderr)
            entry["serve"] = serve_figures(args.pindrop, index, home)
        summary[key] = entry
        json.dump(summary, open(summary_path, "w"), indent=1)
        print(json.dumps({k: v for k, v in entry.items() if k not in ("stages", "stdout")}), file=sys.stderr)

    base = os.path.join(idx, "geonames-x1.sqlite")
    for size in [int(x) for x in args.osm.split(",") if x]:
        key = f"osm-x{size}"
        pbf = os.path.join(args.inputs, manifest["osm"][f"x{size}"]["file"])
        index = os.path.join(idx, f"{key}.sqlite")
        shutil.copyfile(base, index)
        before = os.path.getsize(index)
        osmium = []
        for _ in range(3):
            t = time.time()
            subprocess.run(["osmium", "fileinfo", "-e", pbf], check=True, capture_output=True)
            osmium.append(time.time() - t)
        print(f"{key}: import", file=sys.stderr)
        r = watched(["/usr/bin/time", "-v", args.pindrop, "import", "osm", pbf, "--index", index],
                    os.path.join(out, f"{key}-import"), args.cap_gb, args.timeout)
        o = manifest["osm"][f"x{size}"]
        entry = {"nodes": o["nodes"], "ways": o["ways"], "relations": o["relations"], "pbf_mb": round(o["bytes"] / 1048576, 1),
                 "wall_s": r.get("elapsed", r["wall_s"]), "user_s": r.get("user_s"), "sys_s": r.get("sys_s"),
                 "peak_rss_mb": round(r.get("max_rss_kb", 0) / 1024), "exit": r["exit"], "killed": r["killed"],
                 "stages": stage_table(r), "stdout": r["stdout"].strip(),
                 "stderr_tail": r["stderr"][-1500:] if r["exit"] else "",
                 "osmium_fileinfo_e_s": round(min(osmium), 3)}
        if r["exit"] == 0:
            entry["nodes_per_s"] = round(o["nodes"] / entry["wall_s"])
            entry["osmium_nodes_per_s"] = round(o["nodes"] / min(osmium))
            entry["index_growth_mb"] = round((os.path.getsize(index) - before) / 1048576, 1)
            w, rss, code, text = timed([args.pindrop, "reverse", "60.1705", "24.9414", "--index", index])
            entry["reverse_cli"] = {"wall_s": w, "peak_rss_mb": round(rss), "answer": text.splitlines()[:2]}
            entry["serve"] = serve_figures(args.pindrop, index, home)
        summary[key] = entry
        json.dump(summary, open(summary_path, "w"), indent=1)
        print(json.dumps({k: v for k, v in entry.items() if k not in ("stages", "stdout")}), file=sys.stderr)

    print(markdown(summary))


def markdown(summary):
    lines = ["| GeoNames | rows | import wall s | rows/s | peak RSS MB | index MB | `search` wall s (median of 5) | "
             "`search` RSS MB | serve: start→first answer s | serve RSS MB |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, e in summary.items():
        if key.startswith("geonames"):
            s = e.get("serve", {})
            lines.append(f"| {key} | {e['rows']:,} | {e['wall_s']:.1f} | {e.get('rows_per_s', 0):,} | {e['peak_rss_mb']:,} | "
                         f"{e.get('index_mb', '-')} | {e.get('search_cli_wall_median_s', '-')} | {e.get('search_cli_peak_rss_mb', '-')} | "
                         f"{s.get('first_answer_s', '-')} | {s.get('rss_mb', '-')} |"
                         + (f" FAILED: {e['killed'] or 'exit ' + str(e['exit'])}" if e["exit"] else ""))
    lines += ["", "| OSM | nodes | ways | relations | PBF MB | import wall s | nodes/s | peak RSS MB | index growth MB | "
              "osmium fileinfo -e s | osmium nodes/s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, e in summary.items():
        if key.startswith("osm"):
            lines.append(f"| {key} | {e['nodes']:,} | {e['ways']:,} | {e['relations']:,} | {e['pbf_mb']} | {e['wall_s']:.1f} | "
                         f"{e.get('nodes_per_s', 0):,} | {e['peak_rss_mb']:,} | {e.get('index_growth_mb', '-')} | "
                         f"{e['osmium_fileinfo_e_s']} | {e.get('osmium_nodes_per_s', 0):,} |"
                         + (f" FAILED: {e['killed'] or 'exit ' + str(e['exit'])}" if e["exit"] else ""))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
