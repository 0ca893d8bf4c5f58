"""The runtime checks of `openenv validate --url URL`, with the Python standard library only.

OpenEnv's own package is not on the package index this project installs from, so this script
performs the checks its validator documents for a running server, under the same criterion ids:

  openapi_version_available   GET /openapi.json answers 200 with a string info.version
  health_endpoint             GET /health answers 200 with {"status": "healthy"}
  metadata_endpoint           GET /metadata answers 200 with string name and description
  schema_endpoint             GET /schema answers 200 with object action, observation, state
  mcp_endpoint                POST /mcp with the body {} answers 200 with a JSON-RPC 2.0 payload
  mode_endpoint_consistency   the OpenAPI paths hold /reset, /step and /state all together
                              (simulation mode) or none of them (production mode)

No redirects are followed. It prints a JSON report (target, standard_version,
standard_profile, mode, passed, summary, criteria) and exits 0 when every criterion passed,
1 otherwise.

Usage: python3 scripts/openenv_validate.py http://127.0.0.1:8000 [--timeout SECONDS]
"""

import argparse
import json
import sys
import urllib.error
import urllib.request


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _request(url, method="GET", body=None, timeout=5.0):
    """(status, parsed JSON or None, error text or None)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} if body is not None else {}
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with _OPENER.open(req, timeout=timeout) as res:
            status, raw = res.status, res.read()
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read()
    except (urllib.error.URLError, OSError) as err:
        return None, None, f"{type(err).__name__}: {err}"
    try:
        return status, json.loads(raw), None
    except ValueError:
        return status, None, None


def _criterion(cid, description, passed, **extra):
    out = {"id": cid, "description": description, "passed": bool(passed), "required": True}
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def validate(base_url, timeout=5.0):
    target = base_url.strip()
    if "://" not in target:
        target = "http://" + target
    target = target.rstrip("/")
    criteria = []
    report = {"target": target, "validation_type": "running_environment", "standard_version": "unknown",
              "standard_profile": "openenv-http/unknown", "mode": "unknown", "passed": False}

    status, doc, err = _request(f"{target}/openapi.json", timeout=timeout)
    ok = status == 200 and isinstance(doc, dict) and isinstance(doc.get("info"), dict) and isinstance(doc["info"].get("version"), str)
    paths = doc.get("paths", {}) if ok else {}
    if ok:
        report["standard_version"] = doc["info"]["version"]
        if report["standard_version"].startswith("1."):
            report["standard_profile"] = "openenv-http/1.x"
    criteria.append(_criterion("openapi_version_available", "GET /openapi.json returns OpenAPI info.version", ok,
                               details=err, actual={"status_code": status}))

    status, body, err = _request(f"{target}/health", timeout=timeout)
    ok = status == 200 and isinstance(body, dict) and body.get("status") == "healthy"
    criteria.append(_criterion("health_endpoint", "GET /health returns healthy status", ok, details=err,
                               actual={"status_code": status}))

    status, body, err = _request(f"{target}/metadata", timeout=timeout)
    ok = status == 200 and isinstance(body, dict) and isinstance(body.get("name"), str) and isinstance(body.get("description"), str)
    criteria.append(_criterion("metadata_endpoint", "GET /metadata returns name and description", ok, details=err,
                               actual={"status_code": status}))

    status, body, err = _request(f"{target}/schema", timeout=timeout)
    ok = status == 200 and isinstance(body, dict) and all(isinstance(body.get(k), dict) for k in ("action", "observation", "state"))
    criteria.append(_criterion("schema_endpoint", "GET /schema returns action, observation, and state schemas", ok,
                               details=err, actual={"status_code": status}))

    status, body, err = _request(f"{target}/mcp", method="POST", body={}, timeout=timeout)
    ok = status == 200 and isinstance(body, dict) and body.get("jsonrpc") == "2.0"
    criteria.append(_criterion("mcp_endpoint", "POST /mcp is reachable and returns JSON-RPC payload", ok, details=err,
                               actual={"status_code": status}))

    if isinstance(paths, dict) and paths:
        present = {p: p in paths for p in ("/reset", "/step", "/state")}
        if present["/reset"]:
            report["mode"] = "simulation"
            ok = present["/step"] and present["/state"]
        else:
            report["mode"] = "production"
            ok = not present["/step"] and not present["/state"]
        criteria.append(_criterion("mode_endpoint_consistency", "OpenAPI endpoint set matches OpenEnv mode contract", ok,
                                   actual=present))
    else:
        criteria.append(_criterion("mode_endpoint_consistency", "OpenAPI endpoint set matches OpenEnv mode contract", False,
                                   details="Cannot determine mode without OpenAPI paths"))

    report["passed"] = all(c["passed"] for c in criteria)
    report["summary"] = {"passed_count": sum(c["passed"] for c in criteria), "total_count": len(criteria),
                         "failed_criteria": [c["id"] for c in criteria if not c["passed"]]}
    report["criteria"] = criteria
    return report


def main():
    parser = argparse.ArgumentParser(description="openenv validate --url, standard library only")
    parser.add_argument("url")
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    report = validate(args.url, args.timeout)
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
