//! The contract's status codes where tonic's differ (docs/protocol.md, "Errors").

use tonic::Status;

/// The contract's status for a bot message that could not be read (docs/protocol.md): tonic
/// says OUT_OF_RANGE for a message over the size limit, the contract RESOURCE_EXHAUSTED; tonic
/// says INTERNAL for bytes that are not a message (not protobuf, a bad compression flag, a
/// frame cut short), the contract INVALID_ARGUMENT. (The other INTERNAL errors of a request
/// stream are HTTP/2 errors that reset it, so the bot never sees the status.)
pub(crate) fn read_error(status: Status) -> Status {
    match status.code() {
        tonic::Code::OutOfRange => Status::resource_exhausted(status.message()),
        tonic::Code::Internal => Status::invalid_argument(status.message()),
        _ => status,
    }
}
