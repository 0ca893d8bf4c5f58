"""The reference for `npm run bench -- sql-env`: a bare Python sqlite3 loop in the seed project's
style, doing the same mix of steps as the SQLEnv bench — describe a table (PRAGMA table_info and
a row count), sample 5 rows, run the question's gold SQL — and rendering each result as text the
way the seed's environment did (a header line and one line per row, first 20 rows). No parsing,
no sandbox, no reward: the floor any environment can reach in Python.

Usage: python3 sql_env_loop.py PLAN.json SECONDS
PLAN.json: {"steps": [[db_path, kind, arg], ...]} with kind "describe" | "sample" | "query".
Prints one JSON line: {"steps": n, "seconds": s, "steps_per_s": r}.
"""
import json
import sqlite3
import sys
import time


def main() -> None:
    plan = json.load(open(sys.argv[1]))["steps"]
    budget = float(sys.argv[2])
    connections = {}

    def connect(path):
        db = connections.get(path)
        if db is None:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            connections[path] = db
        return db

    def render(columns, rows):
        lines = [" | ".join(columns)]
        lines.extend(" | ".join("NULL" if v is None else str(v) for v in row) for row in rows[:20])
        lines.append(f"({len(rows)} rows)")
        return "\n".join(lines)

    def step(path, kind, arg):
        db = connect(path)
        if kind == "describe":
            info = db.execute("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", (arg,)).fetchall()
            count = db.execute(f'SELECT count(*) FROM "{arg}"').fetchone()[0]
            return render(["name", "type", "notnull", "pk"], info) + f"\n{count} rows"
        if kind == "sample":
            cur = db.execute(f'SELECT * FROM "{arg}" LIMIT 5')
            return render([d[0] for d in cur.description], cur.fetchall())
        cur = db.execute(arg)
        rows = cur.fetchmany(10000)
        return render([d[0] for d in cur.description or []], rows)

    # Warm up: one pass over the plan (opens every connection).
    for s in plan:
        step(*s)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        for s in plan:
            step(*s)
        n += len(plan)
    seconds = time.perf_counter() - start
    print(json.dumps({"steps": n, "seconds": seconds, "steps_per_s": n / seconds}))


if __name__ == "__main__":
    main()
