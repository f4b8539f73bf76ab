import PortvaktStorage

// The store answers the narrow protocols the server's own pages read through (the domain's
// protocols are conformed to beside them, in PortvaktDomain).
extension PortvaktStore: OutboxCountStore, SentMailStore {}
