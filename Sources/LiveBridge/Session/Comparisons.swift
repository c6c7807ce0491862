/// The comparisons pages ask for (`compare`: a whole replay under another setting), as a value
/// state machine: asked, computed off the controller thread, answered.
///
/// An answer is the same for every page that asks for the same setting, so it is computed once:
/// kept by setting (the last ``cacheLimit``), and pages that ask while it is being computed wait
/// for the same job. Each page may ask at most once per ``interval``.
struct Comparisons {
    /// Answers kept, by setting.
    static let cacheLimit = 16
    /// The shortest time between two answered `compare`s of one page.
    static let interval = 0.2

    /// What to do with a page's request.
    enum Step: Equatable {
        /// The answer is known: send these bytes.
        case answered(CompareAnswer)
        /// Another page asked for it; this one gets the same answer when it comes.
        case waiting
        /// Nobody asked for it yet: check the request and ``start(_:for:now:)`` a job.
        case unknown
    }

    private var cache: [LoadRequest: CompareAnswer] = [:]
    private var cacheOrder: [LoadRequest] = []
    /// The settings being computed, with the pages waiting for each.
    private var computing: [LoadRequest: [ConnectionID]] = [:]
    private var jobs: [CompareJob] = []
    private var lastAsked: [ConnectionID: Double] = [:]

    /// Page `page` asks for `key` at `now`.
    /// - Throws: `rate_limited` when the page asked less than ``interval`` ago.
    mutating func ask(_ key: LoadRequest, from page: ConnectionID, now: Double) throws(BridgeFailure) -> Step {
        let last = lastAsked[page, default: -.infinity]
        guard now - last >= Self.interval else {
            throw BridgeFailure(
                .rateLimited, "at most \(Int(1 / Self.interval)) compare requests a second; ask again in a moment",
                retryAfter: Self.interval - (now - last))
        }
        if let cached = cache[key] {
            lastAsked[page] = now
            return .answered(cached)
        }
        if computing[key] != nil {
            lastAsked[page] = now
            computing[key, default: []].append(page)
            return .waiting
        }
        return .unknown
    }

    /// Starts `job` (its key unknown before) for page `page`.
    mutating func start(_ job: CompareJob, for page: ConnectionID, now: Double) {
        lastAsked[page] = now
        computing[job.request] = [page]
        jobs.append(job)
    }

    /// The jobs to run off the controller thread, once each.
    mutating func takeJobs() -> [CompareJob] {
        defer { jobs.removeAll() }
        return jobs
    }

    /// A job finished: the pages waiting for it, and the answer kept when there is one.
    mutating func finished(_ key: LoadRequest, _ result: Result<CompareAnswer, BridgeFailure>) -> [ConnectionID] {
        if case .success(let answer) = result {
            cache[key] = answer
            cacheOrder.append(key)
            if cacheOrder.count > Self.cacheLimit { cache[cacheOrder.removeFirst()] = nil }
        }
        return computing.removeValue(forKey: key) ?? []
    }

    /// Page `page` is gone.
    mutating func forget(_ page: ConnectionID) { lastAsked[page] = nil }
}

/// A comparison's answer, encoded once: a `series` (a replay under another setting) or a
/// `sheet` (the replay on a sheet through one library).
struct CompareAnswer: Sendable, Equatable {
    /// The message's `type`.
    var type: String
    /// The whole message.
    var bytes: [UInt8]
}
