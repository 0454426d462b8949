import BusWorkloads
import Glibc

// Runs one bus workload for callgrind, which counts instructions, calls to swift_retain and
// swift_release, and mallocs where this machine's `perf` cannot. scripts/benchmark runs it
// twice with different post counts and divides the difference, so set-up and start-up cancel.
//
//     BusProfile <bus|center|direct> <observers> <posts>
let arguments = CommandLine.arguments
guard arguments.count == 4, let kind = WorkloadKind(rawValue: arguments[1]),
    let observers = Int(arguments[2]), let posts = Int(arguments[3])
else {
    print("usage: BusProfile <\(WorkloadKind.allCases.map(\.rawValue).joined(separator: "|"))> <observers> <posts>")
    exit(64)
}
MainActor.assumeIsolated {
    let counter = Counter()
    let workload = kind.make(observers: observers, counter: counter)
    workload.post(times: posts)
    precondition(counter.value == observers * posts, "\(counter.value) deliveries, expected \(observers * posts)")
}
