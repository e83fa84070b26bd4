"""moto's server, answering one request at a time: what the tests start instead of `moto_server`.

`moto_server` serves every request on its own thread, but moto's models are not safe to use
from two threads at once. A DynamoDB table keeps its items in a `defaultdict` keyed by
partition; two requests writing into the same new partition can both find it missing, and the
second to create it replaces the first's dict, so the items already written there vanish
although every write was acknowledged. keyplan's loader sends 8 BatchWriteItems at once, so a
partition cut in two by a batch boundary was sometimes lost (the flake of
`every_typescript_migration_leaves_what_core_predicts_and_reruns_as_a_no_op`: a whole
customer partition missing before the migration ran).

Here every request runs under one lock: connections are still accepted on their own threads
(keep-alive works, no client waits for a connection), but moto handles one request at a time,
as its code assumes. Run with the venv's Python: `python serial_moto.py -H 127.0.0.1 -p PORT`.
"""

import argparse
import os
import threading

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import run_simple


def serialised(app):
    """`app` behind a lock held until its whole answer is produced."""
    lock = threading.Lock()

    def serve(environ, start_response):
        with lock:
            return list(app(environ, start_response))

    return serve


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, required=True)
    args = parser.parse_args()
    # As moto_server does: some services put the port into the URLs they answer with.
    os.environ.setdefault("MOTO_PORT", str(args.port))
    app = DomainDispatcherApplication(create_backend_app)
    run_simple(
        args.host,
        args.port,
        serialised(app),
        threaded=True,
        request_handler=MotoRequestHandler,
    )


if __name__ == "__main__":
    main()
