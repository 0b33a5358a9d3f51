import Foundation
import WardenCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate behind ``URLSessionTransport``: streams each body into a buffer capped while it arrives,
/// refuses to follow redirects, hands server-trust challenges to ``ServerTrust`` and resumes each request exactly
/// once.
///
/// Thread-safety: URLSession calls it on its delegate queue; per-task state lives behind a lock.
final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // state in `tasks` (Locked)
    private struct Pending {
        let continuation: CheckedContinuation<(Data, URLResponse), any Error>
        var data = Data()
        var response: URLResponse?
        var failure: TransportError?
    }

    let maximumResponseBytes: Int
    let trust: ServerTrust?
    private let tasks = Locked<[Int: Pending]>([:])

    init(maximumResponseBytes: Int, trust: ServerTrust?) {
        self.maximumResponseBytes = maximumResponseBytes
        self.trust = trust
    }

    func register(_ task: URLSessionTask, _ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        tasks.withLock { $0[task.taskIdentifier] = Pending(continuation: continuation) }
    }

    private func fail(_ task: URLSessionTask, _ error: TransportError) {
        tasks.withLock { $0[task.taskIdentifier]?.failure = error }
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if response.expectedContentLength > Int64(maximumResponseBytes) {
            fail(dataTask, TransportError(.responseTooLarge, "Content-Length over \(maximumResponseBytes) bytes"))
            completionHandler(.cancel)
            return
        }
        tasks.withLock { $0[dataTask.taskIdentifier]?.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = tasks.withLock { tasks -> Bool in
            guard var pending = tasks[dataTask.taskIdentifier], pending.failure == nil else { return false }
            guard pending.data.count + data.count <= maximumResponseBytes else { return true }
            pending.data.append(data)
            tasks[dataTask.taskIdentifier] = pending
            return false
        }
        if over {
            fail(dataTask, TransportError(.responseTooLarge, "response body over \(maximumResponseBytes) bytes"))
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // never followed: the 3xx is the response
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let trust else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        switch trust.evaluate(challenge) {
        case .defaultHandling: completionHandler(.performDefaultHandling, nil)
        case .accept(let credential): completionHandler(.useCredential, credential)
        case .refuse(let reason):
            tasks.withLock { $0[task.taskIdentifier]?.failure = TransportError(.pinningFailed, reason) }
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let pending = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = pending.failure {
            pending.continuation.resume(throwing: failure)
        } else if let error {
            let mapped =
                (error as? URLError).map(URLSessionTransport.map) ?? TransportError(.other, "the request failed")
            pending.continuation.resume(throwing: mapped)
        } else if let response = pending.response ?? task.response {
            pending.continuation.resume(returning: (pending.data, response))
        } else {
            pending.continuation.resume(throwing: TransportError(.other, "no response"))
        }
    }
}
