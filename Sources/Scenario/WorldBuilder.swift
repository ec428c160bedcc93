import Entitlement
import Foundation
import Harness
import MockPass
import PassModel
import ScenarioSyntax
import Simulation

/// Turns a scenario's header and world statements into what the simulated runtime starts from.
public enum WorldBuilder {
    /// The seed when a scenario names none: fixed, so every run of every file is reproducible.
    static let defaultSeed: UInt64 = 0x5EED

    public static func setup(for file: ScenarioFile) -> SimulationSetup {
        let sps = file.sps
        let mvpds = file.mvpds
        var world = World(serviceProviders: [], identityProviders: [], users: [], requestors: [])
        for sp in sps {
            let described = mvpds.filter { $0.sps.contains(sp.name) }.map(mvpd)
            world.serviceProviders.append(
                World.ServiceProvider(name: sp.name, url: EngineConfiguration.normalizeSP(sp.url), mvpds: described))
        }
        // TempPass pseudo-MVPDs have no identity provider: the SP grants them by itself.
        var idps: [String] = []
        for m in mvpds where m.tempPass == nil && m.promoTempPass == nil && !idps.contains(m.id) { idps.append(m.id) }
        world.identityProviders = idps.map { id in
            // As with the IdP's other settings, the last line of the MVPD that sets a mode wins.
            let mode = mvpds.filter { $0.id == id }.compactMap(\.saml).last
            return World.IdentityProvider(mvpdID: id, saml: mode.map(samlBehavior) ?? .signed)
        }
        var passes: [String] = []
        for m in mvpds where !passes.contains(m.id) {
            if let ttl = m.tempPass ?? m.promoTempPass {
                passes.append(m.id)
                world.tempPasses.append(World.TempPass(mvpdID: m.id, ttl: ttl, promotional: m.tempPass == nil))
            }
        }
        world.users = file.users.map { u in
            World.User(
                name: u.name, password: u.password, mvpdID: u.mvpd, allow: u.allow, deny: u.deny,
                denyMessage: u.denyMessage,
                meta: u.meta.compactMap { e in e.value.literal.map { Value.Entry(e.key, $0) } },
                encrypted: u.encrypted)
        }
        world.requestors = file.requestors
        world.restV2 = restV2Options(file.restV2)

        var links: [LoggedRequest.Host: HostConditions] = [:]
        for sp in sps {
            links[.sp(sp.name)] = HostConditions(
                latency: sp.latency ?? ScenarioFile.defaultRoundTrip,
                mode: sp.unreachable ? .down : sp.silent ? .silent : .up)
        }
        for id in idps {
            // An MVPD declared at several SPs has one IdP: the last line that sets a value wins.
            let decls = mvpds.filter { $0.id == id }
            let latency = decls.compactMap(\.idpLatency).last ?? ScenarioFile.defaultRoundTrip
            links[.idp(id)] = HostConditions(latency: latency, mode: decls.contains(where: \.idpDown) ? .down : .up)
        }

        let defaultSP = file.defaultSP.flatMap { name in sps.first { $0.name == name } } ?? sps.first
        let engine = EngineConfiguration(
            platform: file.platform, deviceType: file.device,
            defaultServiceProvider: defaultSP.map { EngineConfiguration.normalizeSP($0.url) }
                ?? EngineConfiguration().defaultServiceProvider,
            svcScheme: file.svcScheme, wire: file.wire,
            promotionalTempPasses: Set(world.tempPasses.filter(\.promotional).map(\.mvpdID)))
        var setup = SimulationSetup(
            world: world, links: links, seed: file.seed ?? defaultSeed, apps: file.appNames, engine: engine)
        setup.appWires = file.appWires
        setup.secondScreenWire = file.secondScreenWire
        return setup
    }

    /// A world file's text as `passim serve` reads it, for its `POST /admin/world` (`RunningServer.worldLoader`).
    @Sendable public static func setup(forWorldText text: String) -> Result<SimulationSetup, HarnessError> {
        do throws(Diagnostic) {
            return .success(WorldBuilder.setup(for: try ScenarioParser.parseWorld(text, path: "(posted world)")))
        } catch {
            return .failure(HarnessError(error.description))
        }
    }

    /// What Harness composes a runtime for: the setup, the `net … latency` steps' latencies, and the
    /// world's text for a running server.
    static func runtimeWorld(for file: ScenarioFile) -> RuntimeWorld {
        RuntimeWorld(setup: setup(for: file), latencies: file.steppedLatencies) { () throws(HarnessError) in
            try worldText(of: file)
        }
    }

    /// The file's header and world statements: its text with the step lines left blank, so the
    /// server's diagnostics keep the file's line numbers.
    static func worldText(of file: ScenarioFile) throws(HarnessError) -> String {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw HarnessError("cannot read \(file.path)")
        }
        let stepLines = Set(file.steps.map(\.location.line))
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { stepLines.contains($0.offset + 1) ? "" : String($0.element) }.joined(separator: "\n")
    }

    /// The `rest-v2` lines as the mock's options; a later line wins where two set one thing.
    static func restV2Options(_ decls: [RESTv2Decl]) -> RESTv2Options {
        var o = RESTv2Options()
        for decl in decls {
            switch decl {
            case .throttling(let mode):
                o.throttling = mode != "off"
                o.throttleLegacy = mode == "all"
            case .sessionTTL(let d): o.sessionTTL = d
            case .mediaTokenTTL(let d): o.mediaTokenTTL = d
            case .maxResources(let n): o.maxResources = n
            case .platformMapping(let mvpd, let id):
                o.platformMappingIDs.insert(.init(mvpdID: mvpd, platformMappingID: id), at: 0)
            case .degrade(let mvpd, let rule):
                if let rule = RESTv2Options.Degradation.Rule(rawValue: rule) {
                    o.degradations.insert(.init(mvpdID: mvpd, rule: rule), at: 0)
                }
            case .tempPassResources(let mvpd, let n):
                o.tempPassResourceLimits.insert(.init(mvpdID: mvpd, resources: n), at: 0)
            case .parentalControl(let user, let mvpd, let resources):
                o.parentalControls += resources.map { .init(mvpdID: mvpd, userName: user, resource: $0) }
            case .dummyAuthorization(let mvpd): o.dummyAuthorization.append(mvpd)
            case .fault(let mvpd, let code): o.faults.insert(.init(mvpdID: mvpd, code: code), at: 0)
            case .profileTTL(let mvpd, let ttl): o.profileTTLs.insert(.init(mvpdID: mvpd, ttl: ttl), at: 0)
            case .oauth2(let mvpd): o.oauth2MVPDs.append(mvpd)
            case .noLogout(let mvpd): o.noLogoutMVPDs.append(mvpd)
            case .serviceToken(let issuer): o.serviceTokenIssuers.append(issuer)
            case .platformIdentity(let issuer): o.platformIdentityIssuers.append(issuer)
            case .requestor(let r):
                var c =
                    o.requestorConfigurations.first { $0.requestorID == r.id }
                    ?? RESTv2Options.RequestorConfiguration(requestorID: r.id)
                if let name = r.name { c.name = name }
                if let domains = r.domains {
                    c.domains = domains.map { RESTv2Options.Domain(name: $0.name, mvpdInitiated: $0.mvpdInitiated) }
                }
                o.requestorConfigurations.removeAll { $0.requestorID == r.id }
                o.requestorConfigurations.append(c)
            case .mvpd(let m):
                var c = o.mvpdConfiguration(of: m.id)
                c.authPerAggregator = m.authPerAggregator ?? c.authPerAggregator
                c.passiveAuthnEnabled = m.passiveAuthnEnabled ?? c.passiveAuthnEnabled
                c.authPerBrowserSession = m.authPerBrowserSession ?? c.authPerBrowserSession
                c.isProxy = m.isProxy ?? c.isProxy
                o.mvpdConfigurations.removeAll { $0.mvpdID == m.id }
                o.mvpdConfigurations.append(c)
            }
        }
        return o
    }

    static func samlBehavior(_ mode: MVPDDecl.SAMLMode) -> World.SAMLBehavior {
        switch mode {
        case .signed: return .signed
        case .unsigned: return .unsigned
        case .tampered: return .tampered
        case .expired: return .expired
        case .wrongAudience: return .wrongAudience
        }
    }

    static func mvpd(_ d: MVPDDecl) -> MVPD {
        MVPD(
            id: d.id, displayName: d.displayName, logoURL: d.logo, enablePlatformServices: d.sso != nil,
            boardingStatus: d.sso, tempPass: d.tempPass != nil, promoTempPass: d.promoTempPass != nil,
            requiresSVC: d.svc)
    }
}
