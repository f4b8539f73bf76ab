import PortvaktCore
import Foundation

/// The BankID orders in flight, found by order reference, autostart token or QR start token.
/// Orders are forgotten an hour after they end.
actor OrderBook {
    private var orders: [String: BankIDOrder] = [:]

    func add(_ order: BankIDOrder) {
        orders[order.orderRef] = order
    }

    func order(ref: String, now: Date) -> BankIDOrder? {
        purge(now: now)
        return orders[ref]
    }

    func order(autoStartToken token: String) -> BankIDOrder? {
        orders.values.first { constantTimeEqual($0.autoStartToken, token) }
    }

    func order(qrCode text: String, now: Date) -> BankIDOrder? {
        orders.values.first { $0.acceptsQRCode(text, now: now) }
    }

    /// Applies `change` to the order and returns it as changed; nil for an unknown order.
    func update(ref: String, _ change: (inout BankIDOrder) -> Void) -> BankIDOrder? {
        guard var order = orders[ref] else { return nil }
        change(&order)
        orders[ref] = order
        return order
    }

    private func purge(now: Date) {
        orders = orders.filter { $0.value.expiresAt.addingTimeInterval(3600) > now }
    }
}
