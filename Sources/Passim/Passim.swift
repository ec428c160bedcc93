@_exported import Entitlement
@_exported import Lint
@_exported import MockPass
@_exported import PassModel
