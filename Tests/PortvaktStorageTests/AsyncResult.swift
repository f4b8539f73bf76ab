extension Result where Failure == any Error {
    /// What an async call returned or threw: the racers of a concurrency test, each outcome kept.
    init(awaiting body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
