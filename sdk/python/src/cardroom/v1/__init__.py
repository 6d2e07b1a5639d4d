"""The generated protobuf and gRPC modules of the ``cardroom.v1`` contract.

``cardroom_pb2`` holds the messages, ``cardroom_pb2_grpc`` the ``CardroomStub`` client. They are
generated from ``proto/cardroom/v1/cardroom.proto`` by ``python -m cardroom._generate``; do not
edit them by hand.
"""
