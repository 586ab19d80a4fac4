#!/usr/bin/env python3
"""The scripted model of the ACP end-to-end tests, reused from ../shared/realclients: the fake
Gemini API of gemini_e2e.py or the fake OpenAI chat completions of qwen_e2e.py, making one tool
call. Prints its port, then serves until its stdin closes.

Usage: acp_model.py REALCLIENTS_DIR gemini|qwen TOOL_JSON PROJECT_DIR
"""
import json
import sys
import threading
from http.server import ThreadingHTTPServer

realclients, flavour, tool, project = sys.argv[1:5]
sys.dont_write_bytecode = True  # leave no __pycache__ in the shared folder
sys.path.insert(0, realclients)
tool = json.loads(tool)
if flavour == "gemini":
    import gemini_e2e
    handler = gemini_e2e.make_handler(tool, [])
else:
    import qwen_e2e
    handler = qwen_e2e.make_model(tool, {"agent": [], "side": [], "other": [], "blocked": [],
                                         "offered": [], "cwd": project})
server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
sys.stdin.read()
server.shutdown()
