"""The well-behaved bot: imports the cardroom SDK as a real bot does, then asks the server
(gRPC over the Unix socket in CARDROOM_SERVER) whether service "bot" serves, again and again,
until the server says it no longer does. Exits 0 then, 1 on any error.

With ``--rounds N`` it instead times N round trips and prints their median in microseconds."""

import os
import statistics
import sys
import time

import cardroom  # noqa: F401  (the SDK's import cost is part of a hosted bot's start)
import grpc

# grpc.health.v1.HealthCheckRequest{service: "bot"}, and the statuses of its response.
REQUEST = b"\n\x03bot"
SERVING = b"\x08\x01"
NOT_SERVING = b"\x08\x02"


def main() -> int:
    # gRPC's C core sends a Unix socket's path as the :authority, which tonic's HTTP/2 refuses.
    options = [("grpc.default_authority", "localhost")]
    channel = grpc.insecure_channel(os.environ["CARDROOM_SERVER"], options=options)
    check = channel.unary_unary("/grpc.health.v1.Health/Check")
    if len(sys.argv) == 3 and sys.argv[1] == "--rounds":
        for _ in range(50):
            check(REQUEST)
        times = []
        for _ in range(int(sys.argv[2])):
            start = time.perf_counter_ns()
            check(REQUEST)
            times.append(time.perf_counter_ns() - start)
        print(f"median_us {statistics.median(times) / 1000:.1f}")
        return 0
    while True:
        status = check(REQUEST, timeout=10)
        if status == NOT_SERVING:
            print("the server is done")
            return 0
        if status != SERVING:
            print(f"unexpected status {status!r}")
            return 1


if __name__ == "__main__":
    sys.exit(main())
