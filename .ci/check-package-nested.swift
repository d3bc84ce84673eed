// make check-package's second app: booking.json nests nested/sign-in.yaml, both in the target, so FlowKitPlugin
// generates BookingFlow and SignInFlow. Nested steps, the back button out of a nested flow, a completion for the
// wrong step, and a flow from a server checked against the generated code.
import Foundation
import FlowKit

func expect(_ condition: Bool, _ what: String, line: Int = #line) {
    if !condition {
        print("failed at line \(line): \(what)")
        exit(1)
    }
}

var run = try BookingFlow.Run(entry: .openCheckout(storeId: "s-1"))
expect(run.current == .checkout && run.state.storeId == "s-1", "a deep link starts at the checkout")
try run.complete(.checkout(.init(paymentMethod: .card)))
expect(run.current == .signIn(.email), "a guest signs in: the nested flow's first step")
try run.back()
expect(run.current == .checkout, "the back button at a nested flow's first step leaves it")
try run.complete(.checkout(.init(paymentMethod: .card)))
try run.complete(.signIn(.email(.init(email: "ann@example.com"))))
expect(run.current == .signIn(.password), "the nested flow goes on")
do {
    try run.complete(.checkout(.init(paymentMethod: .card)))
    expect(false, "a completion for another step is refused")
} catch {
    expect(error.kind == .invalidCompletion && run.current == .signIn(.password), "refused, and nothing changed: \(error)")
}
let saved = try JSONEncoder().encode(run.snapshot())
run = try BookingFlow.Run(restoring: JSONDecoder().decode(RunSnapshot.self, from: saved))
try run.complete(.signIn(.password(.init(customerId: "c-9"))))
expect(run.current == .placeOrder && run.state.customerId == "c-9", "the nested flow's outcome moves the parent on")
try run.complete(.placeOrder(.init(bookingRef: "B-1")))
try run.complete(.confirmation)
expect(run.outcome == .booked && run.state.paid == true, "booked")

// A flow from a server: the same interface with another title is run; a changed result is refused.
let server = EmbeddedFlowSource(files: [
    "booking.json": BookingFlow.text.replacingOccurrences(of: "\"Book a service\"", with: "\"Book now\""),
    "nested/sign-in.yaml": SignInFlow.text,
])
let same = try CompiledFlow.checked(Array(server.files["booking.json"]!.utf8), name: "booking.json", source: server)
let fromServer = try BookingFlow.Run(link: "/booking/s-2/cart", flow: same)
expect(fromServer.current == .cart && fromServer.state.storeId == "s-2", "a server flow with the same interface runs")
let changed = EmbeddedFlowSource(files: [
    "booking.json": BookingFlow.text,
    "nested/sign-in.yaml": SignInFlow.text.replacingOccurrences(of: "result: { email: string }", with: "result: { email: string, name: string? }"),
])
let other = try CompiledFlow.checked(Array(changed.files["booking.json"]!.utf8), name: "booking.json", source: changed)
do {
    _ = try BookingFlow.Run(inputs: .init(), flow: other)
    expect(false, "a nested flow with another result is refused")
} catch {
    expect(error.kind == .invalidStart && error.message.contains("flow 'signIn' does not match the Swift generated for it"), "\(error)")
}
print("nested flows ran")
