package import PanReplay
internal import PanTrace
package import TransitionEngine
internal import Foundation

/// A shard's share of a sweep (`pantrace tune … --partial FILE`): what the report needs from
/// each gesture, without its samples, so shards tuned apart merge into exactly the report of
/// the whole (`pantrace tune merge`; docs/TUNE.md, "Tuning in shards").
///
/// Each tuned gesture keeps its label, tags, source, fold hash and, for every release set the
/// grid needs (each combination of velocity-source and mapping values, and the defaults'),
/// its release state with every double kept to the bit. The sweep itself runs on the merged
/// gestures, with the same code as a whole run, so every score, margin and fold is the same.
package struct TunePartial: Sendable, Hashable {
    /// The `format` field every partial file has.
    package static let format = "pantrace-tune-partial"
    /// The version this build writes and reads.
    package static let version = 1

    /// A tuned gesture.
    package struct Gesture: Sendable, Hashable {
        /// The gesture's label, tags, source and fold hash.
        package var trace: TunedTrace
        /// One release state per entry of ``TunePartial/releaseKeys``.
        package var releases: [ReleaseState]
    }

    /// The preset swept.
    package var preset: String
    /// The grid's axes, in order.
    package var axes: [GridAxis]
    /// The display frame rate, Hz.
    package var frameRate: Double
    /// The screen decided on; each trace's own when nil.
    package var screen: Size?
    /// The release sets each gesture has a state for (``Tuner/releaseKey(_:)``).
    package var releaseKeys: [String]
    /// The tuned gestures, in corpus order.
    package var gestures: [Gesture]
    /// Traces left out for an unknown intent.
    package var unknownIntent: Int
    /// Traces left out because they do not drive the preset.
    package var notFitting: [TuningResult.Misfit]
    /// Traces left out because they cannot be replayed.
    package var unreplayable: [TraceCorpus.Failure]
    /// Files that could not be read.
    package var unreadable: [TraceCorpus.Failure]

    /// The first file the partial names (a gesture's, a left-out trace's or an unreadable
    /// file's), by which merged partials are put in order; nil when it names none.
    package var firstFile: String? {
        (gestures.map(\.trace.file) + notFitting.map(\.file) + unreplayable.map(\.file) + unreadable.map(\.file)).min()
    }
}

extension Tuner {
    /// A shard's partial: its traces admitted and their release states, ready to merge. A
    /// shard with no tuned trace is a valid partial (the merge refuses when all are empty).
    package func partial(of corpus: TraceCorpus) throws -> TunePartial {
        let admitted = try admission.admit(corpus, sources: space.velocitySources())
        return partial(of: AdmittedCorpus(admitted: admitted, failures: corpus.failures))
    }

    /// The partial of traces already admitted (by ``TraceAdmission/prepare(paths:reader:maximumFiles:allowsNone:failure:)``).
    package func partial(of corpus: AdmittedCorpus) -> TunePartial {
        let admitted = corpus.admitted
        let sets = space.releaseParameters()
        // A partial holds every gesture's states anyway: each set is read once, in order.
        let states = sets.map { Array(admitted.releases($0.parameters, key: $0.key)) }
        let gestures = admitted.kept.indices.map { index in
            TunePartial.Gesture(trace: admitted.kept[index], releases: states.map { $0[index] })
        }
        return TunePartial(
            preset: space.presetName.rawValue, axes: space.grid.axes, frameRate: configuration.frameRate, screen: configuration.screen,
            releaseKeys: sets.map(\.key), gestures: gestures, unknownIntent: admitted.unknownIntent, notFitting: admitted.notFitting,
            unreplayable: admitted.unreplayable, unreadable: corpus.failures)
    }

    /// The sweep of merged partials: the tuner they were made with and their traces, in the
    /// order of each partial's first file (so shards cut from one sorted list merge in any order).
    ///
    /// - Parameters:
    ///   - partials: each partial with the name of its file, for messages.
    ///   - threadCount: worker threads.
    ///   - isConfirmed: whether the partials' grid may have more than
    ///     ``TuningGrid/confirmationLimit`` points (a partial is checked like `tune`'s own grid).
    /// - Throws: ``ReplayError`` `cannotMerge` naming the first difference between two partials'
    ///   presets, grids or options; `noTraces` when no partial has a tuned trace.
    package static func merging(_ partials: [(name: String, partial: TunePartial)], threadCount: Int, isConfirmed: Bool = false) throws -> (
        tuner: Tuner, admitted: AdmittedCorpus
    ) {
        guard let (firstName, first) = partials.first else { throw ReplayError.cannotMerge(reason: "no partial files given") }
        for (name, other) in partials.dropFirst() {
            func differ(_ field: String, _ mine: String, _ theirs: String) -> ReplayError {
                ReplayError.cannotMerge(reason: "\(name) has \(field) \(theirs), \(firstName) has \(mine): partials of different sweeps")
            }
            if other.preset != first.preset { throw differ("preset", first.preset, other.preset) }
            if other.axes != first.axes {
                if let axis = zip(first.axes, other.axes).first(where: { $0.0 != $0.1 }), axis.0.key == axis.1.key {
                    throw differ("grid axis \(axis.0.key)", Self.describe(axis.0.values), Self.describe(axis.1.values))
                }
                throw differ("grid axes", first.axes.map(\.key).joined(separator: ","), other.axes.map(\.key).joined(separator: ","))
            }
            if other.frameRate != first.frameRate { throw differ("fps", "\(first.frameRate)", "\(other.frameRate)") }
            if other.screen != first.screen { throw differ("screen", Self.describe(first.screen), Self.describe(other.screen)) }
            if other.releaseKeys != first.releaseKeys {
                throw differ("release sets", first.releaseKeys.joined(separator: ";"), other.releaseKeys.joined(separator: ";"))
            }
        }
        var configuration = Configuration(threadCount: threadCount, frameRate: first.frameRate, screen: first.screen)
        configuration.screen = first.screen
        let tuner = try Tuner(
            presetNamed: first.preset, grid: try TuningGrid(axes: first.axes, isConfirmed: isConfirmed), configuration: configuration)
        let expected = tuner.space.releaseParameters().map(\.key)
        guard expected == first.releaseKeys else {
            throw ReplayError.cannotMerge(
                reason: "\(firstName): release sets \(first.releaseKeys.joined(separator: ";")) are not the grid's \(expected.joined(separator: ";"))"
            )
        }
        let ordered = partials.enumerated().sorted { a, b in
            switch (a.element.partial.firstFile, b.element.partial.firstFile) {
            case (let x?, let y?) where x != y: return x < y
            case (nil, _?): return true
            case (_?, nil): return false
            default: return a.offset < b.offset
            }
        }.map(\.element.partial)
        var admitted = TraceAdmission.Admitted()
        var failures: [TraceCorpus.Failure] = []
        var stored = [ReleaseColumns](repeating: ReleaseColumns(), count: first.releaseKeys.count)
        for partial in ordered {
            for gesture in partial.gestures { try admitted.kept.append(gesture.trace) }
            for set in first.releaseKeys.indices { for gesture in partial.gestures { stored[set].append(gesture.releases[set]) } }
            admitted.unknownIntent += partial.unknownIntent
            admitted.notFitting += partial.notFitting
            admitted.unreplayable += partial.unreplayable
            failures += partial.unreadable
        }
        for (set, key) in first.releaseKeys.enumerated() { admitted.stored[key] = stored[set] }
        guard !admitted.kept.isEmpty else { throw TraceAdmission.noTraces(admitted, unreadable: failures.count) }
        return (tuner, AdmittedCorpus(admitted: admitted, failures: failures))
    }

    /// Values as a list, or their count and ends when there are more than 6.
    private static func describe(_ values: [PresetValue]) -> String {
        guard values.count > 6 else { return values.map { "\($0)" }.joined(separator: ",") }
        return "\(values.count) values \(values.first!)…\(values.last!)"
    }

    private static func describe(_ screen: Size?) -> String {
        screen.map { "\($0.width)x\($0.height)" } ?? "(each trace's own)"
    }
}
