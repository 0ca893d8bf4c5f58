"""Play SQLEnv episodes served by `sqlenv serve`, through the Gymnasium API when gymnasium is
installed (else through the plain session client).

    npx sqlenv serve --env SQLEnv-v0 --dataset bundled --port 8000 &
    SQLENV_URL=http://127.0.0.1:8000 python3 examples/python/gym_loop.py

The agent is scripted (look at the first table, count its rows, answer); replace `act` with
your policy.
"""
import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from sqlenv_client import connect  # noqa: E402

URL = os.environ.get("SQLENV_URL", "http://127.0.0.1:8000")
EPISODES = int(os.environ.get("EPISODES", "2"))


def first_cell(result: Any) -> Optional[str]:
    """The first value of a query result, as text.

    SQLEnv-v0 sends ``result`` as a Markdown table (``"| count(*) |\n| --- |\n| 400 |\n(1 row)"``);
    envs with structured results send ``{"columns": [...], "rows": [[...]]}``.
    """
    if isinstance(result, dict):
        rows: List[List[Any]] = result.get("rows") or []
        return str(rows[0][0]) if rows and rows[0] else None
    if isinstance(result, str):
        table = [line for line in result.splitlines() if line.startswith("|")]
        if len(table) >= 3:  # header, separator, first row
            return table[2].strip().strip("|").split("|")[0].strip()
    return None


def summary(obs: Any) -> str:
    """One line about a step's observation: its error, else its result."""
    if not isinstance(obs, dict):
        return str(obs)[:100]
    shown = obs.get("error") or obs.get("result") or ""
    return " ".join(str(shown).split())[:100]


def act(obs: Dict[str, Any], step: int) -> Dict[str, Any]:
    """A scripted policy: describe the first table, count its rows, answer with the count."""
    table = (obs.get("tables") or ["?"])[0]
    if step == 0:
        return {"name": "describe", "arguments": {"table_name": table}}
    if step == 1:
        return {"name": "query", "arguments": {"sql": f"SELECT count(*) FROM {table}"}}
    return {"name": "answer", "arguments": {"value": first_cell(obs.get("result")) or ""}}


def main() -> int:
    try:
        from sqlenv_client.gym_env import RemoteGymEnv
    except ImportError:
        RemoteGymEnv = None  # gymnasium is not installed

    if RemoteGymEnv is not None:
        env = RemoteGymEnv(URL)
        reset, step = env.reset, env.step
        close = env.close
        print("using gymnasium.Env adapter")
    else:
        session = connect(URL)

        def reset(seed: int) -> Any:
            r = session.reset(seed=seed)
            return r.observation, r.info

        def step(action: Any) -> Any:
            r = session.step(action)
            return r.observation, float(r.reward or 0.0), r.terminated, r.truncated, r.info

        close = session.close
        print("gymnasium not installed: using the session client")

    try:
        for episode in range(EPISODES):
            obs, info = reset(seed=episode)
            total, done, t = 0.0, False, 0
            while not done:
                action = act(obs, t)
                obs, reward, terminated, truncated, info = step(action)
                print(f"   {action['name']}: {summary(obs)}")
                total += reward
                done = terminated or truncated
                t += 1
            print(f"episode {episode}: return {total:.3f} in {t} steps, correct={info.get('is_correct')}")
    finally:
        close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
