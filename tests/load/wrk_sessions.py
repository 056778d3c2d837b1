#!/usr/bin/env python3
"""Makes N shoppers with a household of 6 through the census, then writes a wrk Lua script that
spreads requests over their sessions (one request per session in turn, so that writes do not all
queue on one application's row).
Usage: wrk_sessions.py BASE_URL HOST N OUT_DIR
Writes OUT_DIR/{step_view,step_submit,quote,quote_identity,pk_read,write}.lua; write.lua puts a
document the size of these applications' (their flags and answers after the census) to
/bench/write/{slot}, one slot per shopper. Requests carry the
headers a browser sends (Accept-Encoding: gzip, deflate, br), except quote_identity's.
"""
import json
import sys

from client import CENSUS, Session

base, host, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
FAMILY = dict(CENSUS, sub_tobacco=1, sub_birth_date="1980-03-02",
              spouse={"gender": "M", "birth_date": "1982-07-21", "tobacco": 0},
              dependents=[{"gender": "F", "birth_date": "2008-01-05", "tobacco": 0},
                          {"gender": "M", "birth_date": "2011-04-09"},
                          {"gender": "F", "birth_date": "2014-08-30"},
                          {"gender": "M", "birth_date": "2018-11-02"}])
shoppers = []
for _ in range(n):
    s = Session(base, host)
    s.start()
    s.call("whyApplying", "PUT", "/api/application/step/whyApplying", {"enrollment_type": "oe"})
    s.call("census", "PUT", "/api/application/step/census", FAMILY)
    app = s.call("active", "GET", "/api/application/active")["application"]["applicationId"]
    shoppers.append((s.cookie, s.token, app))


BROWSER = '["Accept-Encoding"] = "gzip, deflate, br", '


def lua(name, method, paths, body=None, extra=BROWSER):
    entries = ",\n".join(
        "{%s, %s, %s}" % (json.dumps(c), json.dumps(t), json.dumps(p)) for (c, t, _), p in zip(shoppers, paths))
    with open(f"{out}/{name}.lua", "w") as f:
        f.write(f"""local s = {{
{entries}
}}
local i = 0
local body = {json.dumps(json.dumps(body)) if body is not None else 'nil'}
request = function()
  i = i % #s + 1
  local e = s[i]
  local h = {{ {extra}["Host"] = "{host}", ["Origin"] = "http://{host}", ["Cookie"] = e[1],
              ["X-CSRF-Token"] = e[2], ["Content-Type"] = "application/json" }}
  return wrk.format("{method}", e[3], h, body)
end
response = function(status, headers, body)
  if status ~= 200 then errors = (errors or 0) + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("non-2xx: %d\\n", summary.errors.status))
end
""")


lua("step_view", "GET", ["/api/application/step/census"] * n)
lua("step_submit", "PUT", ["/api/application/step/census"] * n, FAMILY)
lua("quote", "GET", ["/api/plans/1/allPlans"] * n)
lua("quote_identity", "GET", ["/api/plans/1/allPlans"] * n, extra="")
lua("pk_read", "GET", [f"/bench/pk/{app}" for _, _, app in shoppers])
# The stored document of a shopper after the census: its flags and the answers of two steps.
DOCUMENT = {"enrollment_type": "oe", "effective_date": "2025-01-01", "enrollment_reason_id": 1,
            "enrollment_period_type_id": 1, "last_step": 3, "skip_medical": False,
            "whyApplying": {"enrollment_type": "oe"}, "census": FAMILY}
lua("write", "PUT", [f"/bench/write/{i}" for i in range(n)], DOCUMENT)
print(f"{n} sessions with a household of 6 at the census")
