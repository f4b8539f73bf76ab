/// The portal's Mustache templates: one layout (`layout`) that every page extends, so each page
/// fills in only its title and main content. Values are HTML-escaped unless a template says
/// otherwise (it never does). Texts come from `t` (``PortalText``).
enum PortalTemplates {
    static let layout = #"""
    <!doctype html>
    <html lang="{{lang}}">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>{{$title}}{{/title}} – Portvakt</title>
    <link rel="stylesheet" href="/assets/portvakt.css">
    </head>
    <body>
    <a class="skip" href="#main">{{t.skip_to_content}}</a>
    <header>
    <p class="site">{{#portal}}<a href="/">{{t.site_name}}</a>{{/portal}}{{^portal}}{{t.site_name}}{{/portal}}</p>
    {{#nav}}
    <nav aria-label="{{t.menu}}">
    <ul>
    {{#portal}}
    {{#signedIn}}
    <li><a href="/account">{{t.my_account}}</a></li>
    <li><form method="post" action="/portal/logout"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" class="link">{{t.sign_out}}</button></form></li>
    {{/signedIn}}
    {{^signedIn}}
    <li><a href="/portal/login">{{t.sign_in}}</a></li>
    {{/signedIn}}
    {{/portal}}
    {{#switchLanguage}}<li><a href="{{switchLanguage}}" lang="{{otherLang}}" hreflang="{{otherLang}}">{{t.other_language}}</a></li>{{/switchLanguage}}
    </ul>
    </nav>
    {{/nav}}
    </header>
    <main id="main" tabindex="-1">
    {{#status}}<p class="status" role="status">{{status}}</p>{{/status}}
    {{$main}}{{/main}}
    </main>
    </body>
    </html>
    """#

    static let start = #"""
    {{<layout}}
    {{$title}}{{#status}}{{status}} – {{/status}}{{t.start_title}}{{/title}}
    {{$main}}
    <h1>{{t.start_title}}</h1>
    <p>{{t.start_intro}}</p>
    <p>{{t.start_who}}</p>
    {{^signedIn}}
    <ul class="actions">
    <li><a class="button" href="/portal/login?method=bankid">{{t.sign_in_bankid}}</a></li>
    <li><a class="button" href="/portal/login?method=vipps">{{t.sign_in_vipps}}</a></li>
    <li><a class="button secondary" href="/portal/login?method=password">{{t.sign_in_password}}</a></li>
    </ul>
    {{/signedIn}}
    {{#signedIn}}<p><a class="button" href="/account">{{t.my_account}}</a></p>{{/signedIn}}
    {{#sandbox}}
    <section aria-labelledby="try">
    <h2 id="try">{{t.try_title}}</h2>
    <p>{{t.try_intro}}</p>
    <ul class="people">
    {{#people}}
    <li>
    <h3>{{name}}</h3>
    <p>{{member}}</p>
    <p>{{shows}}</p>
    <p class="pair"><a class="button" href="/portal/login?method=vipps&amp;person={{id}}" aria-label="{{t.try_with_vipps}}: {{name}}">{{t.try_with_vipps}}</a>
    <a class="button secondary" href="/portal/login?method=bankid&amp;person={{id}}" aria-label="{{t.try_with_bankid}}: {{name}}">{{t.try_with_bankid}}</a></p>
    </li>
    {{/people}}
    </ul>
    </section>
    {{/sandbox}}
    <section aria-labelledby="developers">
    <h2 id="developers">{{t.for_developers}}</h2>
    <ul>
    <li><a href="/.well-known/openid-configuration">{{t.discovery}}</a></li>
    <li><a href="/openapi.json">{{t.integration_guide}}</a></li>
    <li><a href="/health/ready">{{t.health}}</a></li>
    </ul>
    </section>
    {{/main}}
    {{/layout}}
    """#

    static let account = #"""
    {{<layout}}
    {{$title}}{{#status}}{{status}} – {{/status}}{{t.account_title}}{{/title}}
    {{$main}}
    <h1>{{t.account_title}}</h1>
    <p>{{t.account_intro}} <strong>{{name}}</strong>.</p>
    <h2>{{t.organisations}}</h2>
    {{#hasRoles}}<ul>{{#roles}}<li>{{.}}</li>{{/roles}}</ul>{{/hasRoles}}
    {{^roles}}<p>{{t.no_organisation}}</p>{{/roles}}
    {{#administers}}<p><a class="button" href="{{href}}">{{label}}</a></p>{{/administers}}
    <p>{{t.signed_in_with}}: {{method}}, {{signedInAt}}.</p>

    <h2 id="devices">{{t.devices_title}}</h2>
    <p>{{t.devices_intro}}</p>
    {{#hasDevices}}
    <ul class="cards" aria-labelledby="devices">
    {{#devices}}
    <li>
    <h3>{{name}}</h3>
    <dl><dt>{{t.device_kind}}</dt><dd>{{kind}}</dd><dt>{{t.device_last_used}}</dt><dd>{{lastUsed}}</dd></dl>
    <form method="post" action="/account/devices/{{id}}/remove"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit" aria-label="{{t.remove_device}}: {{name}}">{{t.remove}}</button></form>
    </li>
    {{/devices}}
    </ul>
    {{/hasDevices}}
    {{^devices}}<p>{{t.no_devices}}</p>{{/devices}}

    <h2 id="sessions">{{t.sessions_title}}</h2>
    <p>{{t.sessions_intro}}</p>
    <ul class="cards" aria-labelledby="sessions">
    {{#sessions}}
    <li>
    <h3>{{where}}</h3>
    <dl><dt>{{t.session_since}}</dt><dd>{{since}}, {{method}}</dd></dl>
    {{^current}}<form method="post" action="/account/sessions/{{id}}/end"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit" aria-label="{{t.end_session}}: {{where}}, {{since}}">{{t.end_session}}</button></form>{{/current}}
    </li>
    {{/sessions}}
    </ul>
    {{#others}}<form method="post" action="/account/sessions/end-others"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit">{{t.end_other_sessions}}</button></form>{{/others}}

    <h2 id="events">{{t.events_title}}</h2>
    {{#hasEvents}}
    <table aria-labelledby="events">
    <thead><tr><th scope="col">{{t.event_when}}</th><th scope="col">{{t.event_what}}</th></tr></thead>
    <tbody>
    {{#events}}<tr><td>{{when}}</td><td>{{what}}</td></tr>{{/events}}
    </tbody>
    </table>
    {{/hasEvents}}
    {{^events}}<p>{{t.no_events}}</p>{{/events}}
    {{/main}}
    {{/layout}}
    """#

    static let problem = #"""
    {{<layout}}
    {{$title}}{{heading}}{{/title}}
    {{$main}}
    <h1>{{heading}}</h1>
    <p class="error">{{message}}</p>
    <p>{{#action}}<a class="button" href="{{href}}">{{label}}</a> {{/action}}<a href="/">{{t.go_to_start}}</a></p>
    {{/main}}
    {{/layout}}
    """#

    /// The broker's own pages in the app's login (method choice, password, BankID on another
    /// device, problems): their body is built and escaped by ``BrokerPage``'s callers.
    static let broker = #"""
    {{<layout}}
    {{$title}}{{title}}{{/title}}
    {{$main}}
    {{{body}}}
    {{/main}}
    {{/layout}}
    """#

    static let all: [(name: String, text: String)] = [
        ("layout", layout), ("start", start), ("account", account), ("problem", problem), ("broker", broker),
    ]
}
