/// An Objective-C message send, `[receiver part: argument part2: argument2]`.
struct ObjCMessage {
    struct Part {
        let label: String
        /// The token index of the label.
        let index: Int
        /// The argument tokens (empty for a unary message).
        let argument: Range<Int>
    }

    /// Token indices of `[` and `]`.
    let open: Int
    let close: Int
    let receiver: Range<Int>
    let parts: [Part]

    /// The argument of the part labelled `label` (`forKey` in `setObject:forKey:`).
    func argument(_ label: String) -> Range<Int>? { parts.first { $0.label == label }?.argument }

    /// `setObject:forKey:`.
    var selector: String {
        parts.map { $0.argument.isEmpty && parts.count == 1 ? $0.label : $0.label + ":" }.joined()
    }
}

extension FileScan {
    /// The message send whose selector includes the identifier at `index`, in Objective-C files.
    func message(at index: Int) -> ObjCMessage? {
        guard file.language == .objectiveC, let open = enclosingOpener(of: index, "[", limit: 1024) else { return nil }
        guard let message = message(opening: open), message.parts.contains(where: { $0.index == index }) else {
            return nil
        }
        return message
    }

    /// The message send that opens at the `[` at `open`.
    func message(opening open: Int) -> ObjCMessage? {
        guard isSymbol(open, "["), file.partner[open] > open else { return nil }
        let close = Int(file.partner[open])
        var position = open + 1
        // A cast: [(id)x message]
        if isSymbol(position, "("), file.partner[position] > position { position = Int(file.partner[position]) + 1 }
        guard position < close else { return nil }
        if isSymbol(position, "["), file.partner[position] > position {
            position = Int(file.partner[position]) + 1
        } else if [.identifier, .keyword, .string].contains(tokens[position].kind) {
            position += 1
        } else {
            return nil
        }
        // A member chain: `self.webView`, `self->_webView` (an instance variable through `->`).
        while position + 1 < close {
            if isSymbol(position, "."), tokens[position + 1].kind == .identifier {
                position += 2
            } else if isSymbol(position, "->"), tokens[position + 1].kind == .identifier {
                position += 2
            } else if isSymbol(position, "-"), isSymbol(position + 1, ">"), position + 2 < close,
                tokens[position + 2].kind == .identifier
            {
                position += 3
            } else {
                break
            }
        }
        let receiver = (open + 1)..<position
        var parts: [ObjCMessage.Part] = []
        guard position < close, tokens[position].kind == .identifier || tokens[position].kind == .keyword else {
            return nil
        }
        if position + 1 == close {
            return ObjCMessage(
                open: open, close: close, receiver: receiver,
                parts: [.init(label: tokens[position].text, index: position, argument: close..<close)])
        }
        while position < close {
            guard tokens[position].kind == .identifier || tokens[position].kind == .keyword,
                isSymbol(position + 1, ":")
            else { break }
            let label = position
            var end = position + 2
            while end < close {
                if file.partner[end] > end {
                    end = Int(file.partner[end]) + 1
                    continue
                }
                if tokens[end].kind == .identifier || tokens[end].kind == .keyword, isSymbol(end + 1, ":"),
                    end > position + 2
                {
                    break
                }
                end += 1
            }
            parts.append(.init(label: tokens[label].text, index: label, argument: (label + 2)..<end))
            position = end
        }
        return parts.isEmpty ? nil : ObjCMessage(open: open, close: close, receiver: receiver, parts: parts)
    }
}
