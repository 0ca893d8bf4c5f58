"""Where the server under test is: SQLENV_URL, set by the vitest test that starts it."""
import os
import unittest

SERVER_URL = os.environ.get("SQLENV_URL", "")


def require_server(case: unittest.TestCase) -> str:
    """The server URL, or skip when the tests run without one."""
    if not SERVER_URL:
        case.skipTest("SQLENV_URL is not set; run through `npx vitest run test/remote/python-client.test.ts`")
    return SERVER_URL
