/// Unweighted polynomial least squares by Gram–Schmidt QR, shared by Android (in `Float`) and
/// Flutter (in `Double`).
///
/// Both platforms run the same algorithm, operation for operation:
/// - Android `libs/input/VelocityTracker.cpp` (blob `613a0df0`) `solveLeastSquares()`, in
///   `float`, with a "no solution" threshold of `norm < 0.000001f`;
/// - Flutter `lsq_solver.dart` (blob `9e7d438a`) `LeastSquaresSolver.solve()`, in `double`,
///   with `norm < precisionErrorTolerance` (1e-10, `foundation/constants.dart`).
///
/// The two ports differ only in scalar type and threshold, so one generic implementation
/// keeps them in lockstep. Weights are always 1 on both call paths (Android's
/// `Weighting::NONE`, Flutter's `w.add(1.0)`); multiplying by 1 is exact, so dropping the
/// weight vector does not change a single bit. Scratch storage is fixed-size local
/// `InlineArray`s (at most 20 samples and degree 2) on the stack, so a fit never allocates.
enum LeastSquaresSolver<Scalar: BinaryFloatingPoint & Sendable> {
    /// The most samples a fit takes (the trackers' history size).
    static var maximumCount: Int { SampleRing.capacity }

    /// The highest degree supported (both platforms use 2 at most here).
    static var maximumDegree: Int { 2 }

    /// Fits `y ≈ b0 + b1·x + … + bn·x^n` to the first `count` pairs and returns `b`, or `nil`
    /// when a column of the design matrix is (numerically) dependent on the previous ones.
    ///
    /// - Parameters:
    ///   - x: abscissae (Android and Flutter both use minus the age of each sample).
    ///   - y: ordinates (positions).
    ///   - count: how many pairs to use, `1...20`.
    ///   - degree: the polynomial degree, `0...2`.
    ///   - normTolerance: the threshold below which a Gram–Schmidt column norm means
    ///     "linearly dependent".
    static func fit(
        x: InlineArray<20, Scalar>,
        y: InlineArray<20, Scalar>,
        count m: Int,
        degree: Int,
        normTolerance: Scalar
    ) -> InlineArray<3, Scalar>? {
        precondition(m >= 1 && m <= maximumCount, "sample count out of range")
        precondition(degree >= 0 && degree <= maximumDegree, "degree out of range")
        let n = degree + 1
        let stride = maximumCount

        // A is n×m, column h holds 1, x, x², … (row-major by power here; Android calls the
        // same layout "column-major" because its matrix is m×n).
        var a = InlineArray<60, Scalar>(repeating: 0)
        for h in 0..<m {
            a[h] = 1
            var power = 1
            while power < n {
                a[power * stride + h] = a[(power - 1) * stride + h] * x[h]
                power += 1
            }
        }

        // Gram–Schmidt: q holds the orthonormal basis, r the upper-triangular factor.
        var q = InlineArray<60, Scalar>(repeating: 0)
        var r = InlineArray<9, Scalar>(repeating: 0)
        for j in 0..<n {
            for h in 0..<m {
                q[j * stride + h] = a[j * stride + h]
            }
            for i in 0..<j {
                var dot: Scalar = 0
                for h in 0..<m {
                    dot += q[j * stride + h] * q[i * stride + h]
                }
                for h in 0..<m {
                    q[j * stride + h] -= dot * q[i * stride + h]
                }
            }

            var sumOfSquares: Scalar = 0
            for h in 0..<m {
                let t = q[j * stride + h]
                sumOfSquares += t * t
            }
            let norm = sumOfSquares.squareRoot()
            if norm < normTolerance {
                return nil
            }

            let inverseNorm = 1 / norm
            for h in 0..<m {
                q[j * stride + h] *= inverseNorm
            }
            for i in 0..<n {
                if i < j {
                    r[j * 3 + i] = 0
                } else {
                    var dot: Scalar = 0
                    for h in 0..<m {
                        dot += q[j * stride + h] * a[i * stride + h]
                    }
                    r[j * 3 + i] = dot
                }
            }
        }

        // Solve R·b = Qᵀ·y from the bottom row up (R is upper triangular).
        var b = InlineArray<3, Scalar>(repeating: 0)
        var i = n - 1
        while i >= 0 {
            var dot: Scalar = 0
            for h in 0..<m {
                dot += q[i * stride + h] * y[h]
            }
            b[i] = dot
            var k = n - 1
            while k > i {
                b[i] -= r[i * 3 + k] * b[k]
                k -= 1
            }
            b[i] /= r[i * 3 + i]
            i -= 1
        }
        return b
    }
}

extension LeastSquaresSolver where Scalar == Double {
    /// Flutter's `PolynomialFit.confidence`: the coefficient of determination r², or 1 when
    /// the data has (almost) no variance.
    ///
    /// Same loop as `lsq_solver.dart` (blob `9e7d438a`): `1 - sumSquaredError /
    /// sumSquaredTotal`, with `sumSquaredTotal <= precisionErrorTolerance` giving 1.0.
    static func confidence(
        x: InlineArray<20, Double>,
        y: InlineArray<20, Double>,
        count m: Int,
        coefficients b: InlineArray<3, Double>,
        degree: Int,
        tolerance: Double
    ) -> Double {
        let n = degree + 1
        var yMean = 0.0
        for h in 0..<m {
            yMean += y[h]
        }
        yMean /= Double(m)

        var sumSquaredError = 0.0
        var sumSquaredTotal = 0.0
        for h in 0..<m {
            var term = 1.0
            var err = y[h] - b[0]
            for i in 1..<n {
                term *= x[h]
                err -= term * b[i]
            }
            sumSquaredError += err * err
            let v = y[h] - yMean
            sumSquaredTotal += v * v
        }
        return sumSquaredTotal <= tolerance ? 1.0 : 1.0 - sumSquaredError / sumSquaredTotal
    }
}
