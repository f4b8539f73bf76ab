import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection as soon as the response to a `Connection: close` request is written.
///
/// Hummingbird (2.28) answers such a request, closes only its output half and waits for the
/// client's end of stream; when the handler did not read the request body (a 404 to a 1 MB
/// upload), the unread bytes stop the channel from reading, the end of stream is never seen,
/// and the socket and its buffers stay for good. Closing here ends the connection at once.
final class CloseAfterResponseHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var closeRequested = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), let connection = head.headerFields[.connection] {
            closeRequested = connection.lowercased().split(separator: ",").contains { $0.filter { $0 != " " } == "close" }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard closeRequested, case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.cascade(to: promise)
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.whenComplete { _ in boundContext.value.close(promise: nil) }
        context.writeAndFlush(data, promise: written)
    }
}
