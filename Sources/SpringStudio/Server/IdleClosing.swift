import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

extension StudioServer {
    /// A server channel whose connections close after ``idle`` with nothing read.
    struct IdleClosing<Base: ServerChildChannel>: ServerChildChannel {
        let base: Base

        func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
            do {
                try channel.pipeline.syncOperations.addHandlers(IdleStateHandler(readTimeout: idle), CloseWhenIdle())
            } catch {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return base.setup(channel: channel, logger: logger)
        }

        func handle(value: Base.Value, logger: Logger) async { await base.handle(value: value, logger: logger) }
    }

    /// Closes the connection on the idle handler's read event; passes everything else on.
    final class CloseWhenIdle: ChannelInboundHandler, Sendable {
        typealias InboundIn = NIOAny
        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case IdleStateHandler.IdleStateEvent.read? = event as? IdleStateHandler.IdleStateEvent {
                context.close(promise: nil)
            } else {
                context.fireUserInboundEventTriggered(event)
            }
        }
    }
}
