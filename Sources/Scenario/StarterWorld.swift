/// The world of `passim serve --adobe`: Adobe's production host layout. The same text is
/// `Fixtures/worlds/adobe.scenario` (a test keeps the two equal), for users who start from it.
public enum StarterWorld {
    public static let adobe = """
        # Adobe's production host layout (`passim serve --adobe` serves this very text): the SDK and web
        # endpoints under https://sp.auth.adobe.com/adobe-services, registration, regcodes and the REST API v1
        # at the roots of sp.auth.adobe.com and api.auth.adobe.com (one service: SPs share every session), one
        # MVPD whose IdP is https://passimcable.idp.test. Through `passim serve --adobe --proxy PORT` a client
        # keeps Adobe's URLs and changes only its proxy and the CA it trusts (docs/SERVE.md, "Point a real client at passim").
        sp adobe "https://sp.auth.adobe.com/adobe-services"
        sp api "https://api.auth.adobe.com"
        mvpd PassimCable "Passim Cable" at adobe, api
        user viewer "s3cret" at PassimCable allow passimtv deny passimtv-ppv "Passim PPV is not in your package."
        requestor passimtv
        """
}
