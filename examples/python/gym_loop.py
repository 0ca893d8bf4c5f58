"""Play SQLEnv episodes served by `sqlenv serve`, through the Gymnasium API when gymnasium is
installed (else through the plain session client).

    npx sqlenv serve --port 8000 &
    SQLENV_URL=http://127.0.0.1:8000 python3 examples/python/gym_loop.py

The agent is scripted (look at the first table, count its rows, answer); replace `act` with
your policy.
"""
import os
import sys
from pathlib import Path
from typing import Any, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from sqlenv_client import connect, render_text  # noqa: E402

URL = os.environ.get("SQLENV_URL", "http://127.0.0.1:8000")
EPISODES = int(os.environ.get("EPISODES", "2"))


def act(obs: Dict[str, Any], step: int) -> Dict[str, Any]:
    """A scripted policy: describe the first table, count its rows, answer with the count."""
    table = (obs.get("tables") or ["?"])[0]
    if step == 0:
        return {"name": "describe", "arguments": {"table_name": table}}
    if step == 1:
        return {"name": "query", "arguments": {"sql": f"SELECT count(*) FROM {table}"}}
    rows: List[List[Any]] = (obs.get("result") or {}).get("rows") or [[None]]
    return {"name": "answer", "arguments": {"value": str(rows[0][0])}}


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
            print("  ", render_text(r).replace("\n", " | ")[:120])
            return r.observation, float(r.reward or 0.0), r.terminated, r.truncated, r.info

        close = session.close
        print("gymnasium not installed: using the session client")

    try:
        for episode in range(EPISODES):
            obs, info = reset(seed=episode)
            total, done, t = 0.0, False, 0
            while not done:
                obs, reward, terminated, truncated, info = step(act(obs, t))
                total += reward
                done = terminated or truncated
                t += 1
            print(f"episode {episode}: return {total:.3f} in {t} steps, correct={info.get('is_correct')}")
    finally:
        close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
