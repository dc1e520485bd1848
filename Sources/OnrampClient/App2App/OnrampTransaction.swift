import OnrampWire

/// One transaction of the transactions API (`GET /onramp/v1/buy/user/{partnerUserRef}/transactions`):
/// the wire object the server writes, read with the same type.
public typealias OnrampTransaction = OnrampWire.OnrampTransaction
