/// A binary min-heap of (due time, lane).
struct TimerHeap: Sendable {
    private var items: [(due: Int64, lane: MutationLane)] = []

    func peek() -> (due: Int64, lane: MutationLane)? { items.first }

    mutating func push(due: Int64, lane: MutationLane) {
        items.append((due, lane))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].due < items[parent].due else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count, items[left].due < items[smallest].due { smallest = left }
            if right < items.count, items[right].due < items[smallest].due { smallest = right }
            if smallest == parent { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
