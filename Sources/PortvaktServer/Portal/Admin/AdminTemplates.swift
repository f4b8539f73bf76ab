/// The administration pages' templates, on the portal's one layout. A wide table scrolls inside
/// its own focusable region, so the page itself reflows at 320 px (WCAG 1.4.10).
enum AdminTemplates {
    static let nav = #"""
    <nav aria-label="{{t.admin_menu}}" class="subnav">
    <ul>
    {{#org.admin}}<li><a href="{{base}}"{{#here.overview}} aria-current="page"{{/here.overview}}>{{t.admin_overview}}</a></li>{{/org.admin}}
    <li><a href="{{base}}/members"{{#here.members}} aria-current="page"{{/here.members}}>{{t.admin_members}}</a></li>
    {{#org.admin}}
    <li><a href="{{base}}/sync"{{#here.sync}} aria-current="page"{{/here.sync}}>{{t.admin_sync}}</a></li>
    <li><a href="{{base}}/deliveries"{{#here.deliveries}} aria-current="page"{{/here.deliveries}}>{{t.admin_deliveries}}</a></li>
    <li><a href="{{base}}/merge"{{#here.merge}} aria-current="page"{{/here.merge}}>{{t.admin_merge}}</a></li>
    <li><a href="{{base}}/audit"{{#here.audit}} aria-current="page"{{/here.audit}}>{{t.admin_audit}}</a></li>
    {{/org.admin}}
    </ul>
    </nav>
    """#

    static let paging = #"""
    {{#paging}}{{#pageText}}<nav aria-label="{{t.admin_pages}}" class="paging"><ul>
    {{#previous}}<li><a href="{{previous}}" rel="prev">{{t.admin_previous}}</a></li>{{/previous}}
    <li>{{pageText}}</li>
    {{#next}}<li><a href="{{next}}" rel="next">{{t.admin_next}}</a></li>{{/next}}
    </ul></nav>{{/pageText}}{{/paging}}
    """#

    static let stepUpLinks = #"""
    <div class="notice" id="step-up">
    <h2>{{t.admin_step_up_title}}</h2>
    <p>{{t.admin_step_up_needed}}</p>
    <ul class="actions">
    <li><a class="button" href="/portal/login?method=bankid&amp;step_up=1&amp;back={{stepUpBack}}">{{t.admin_step_up_bankid}}</a></li>
    <li><a class="button secondary" href="/portal/login?method=vipps&amp;step_up=1&amp;back={{stepUpBack}}">{{t.admin_step_up_vipps}}</a></li>
    </ul>
    </div>
    """#

    static let home = #"""
    {{<layout}}
    {{$title}}{{t.administration}}{{/title}}
    {{$main}}
    <h1>{{t.administration}}</h1>
    {{#hasOrganisations}}<ul>{{#organisations}}<li><a href="{{href}}">{{name}}</a> ({{role}})</li>{{/organisations}}</ul>{{/hasOrganisations}}
    {{^organisations}}<p>{{t.admin_no_organisations}}</p>{{/organisations}}
    {{/main}}
    {{/layout}}
    """#

    static let overview = #"""
    {{<layout}}
    {{$title}}{{t.admin_overview}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{org.name}}</h1>
    {{> admin_nav}}
    <h2 id="attention">{{t.admin_needs_action}}</h2>
    <ul class="counts" aria-labelledby="attention">
    {{#counts}}<li><a href="{{href}}"><span class="count">{{count}}</span> {{label}}</a></li>{{/counts}}
    </ul>
    {{/main}}
    {{/layout}}
    """#

    static let members = #"""
    {{<layout}}
    {{$title}}{{t.admin_members}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_members}} – {{org.name}}</h1>
    {{> admin_nav}}
    <form method="get" action="{{base}}/members" role="search" class="filters">
    <div><label for="q">{{t.admin_search_name}}</label>
    <input id="q" name="q" type="search" value="{{query}}" maxlength="100"></div>
    {{#filter}}<input type="hidden" name="filter" value="{{filter}}">{{/filter}}
    <button type="submit">{{t.admin_search}}</button>
    </form>
    {{#filterLabel}}<p>{{filterLabel}} <a href="{{base}}/members">{{t.admin_show_all}}</a></p>{{/filterLabel}}
    <p>{{summary}}</p>
    {{#hasMembers}}
    <div class="table-scroll" role="region" aria-labelledby="members-caption" tabindex="0">
    <table>
    <caption id="members-caption">{{t.admin_members_caption}}</caption>
    <thead><tr><th scope="col">{{t.admin_name}}</th><th scope="col">{{t.admin_role}}</th><th scope="col">{{t.admin_logins}}</th><th scope="col">{{t.admin_on_file}}</th></tr></thead>
    <tbody>
    {{#members}}<tr><th scope="row">{{#link}}<a href="{{link}}">{{name}}</a>{{/link}}{{^link}}{{name}}{{/link}}</th><td>{{role}}</td><td>{{logins}}</td><td>{{onFile}}</td></tr>{{/members}}
    </tbody>
    </table>
    </div>
    {{/hasMembers}}
    {{^members}}<p>{{t.admin_no_members}}</p>{{/members}}
    {{> admin_paging}}
    {{/main}}
    {{/layout}}
    """#

    static let member = #"""
    {{<layout}}
    {{$title}}{{#status}}{{status}} – {{/status}}{{name}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{name}}</h1>
    {{> admin_nav}}
    <dl>
    <dt>{{t.admin_role}}</dt><dd>{{role}}</dd>
    <dt>{{t.admin_email}}</dt><dd>{{email}}</dd>
    <dt>{{t.admin_logins}}</dt><dd>{{logins}}</dd>
    <dt>{{t.admin_on_file}}</dt><dd>{{onFile}}</dd>
    </dl>
    <h2 id="devices">{{t.devices_title}}</h2>
    {{#hasDevices}}
    <ul aria-labelledby="devices">{{#devices}}<li>{{name}} ({{kind}}). {{t.device_last_used}}: {{lastUsed}}</li>{{/devices}}</ul>
    <p>{{t.admin_remove_all_explained}}</p>
    <form method="post" action="{{path}}/devices/remove"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit">{{t.admin_remove_all_devices}}</button></form>
    {{/hasDevices}}
    {{^devices}}<p>{{t.admin_member_no_devices}}</p>{{/devices}}
    <h2 id="password">{{t.admin_password_login}}</h2>
    {{#invited}}
    <div class="notice">
    <p>{{t.admin_invite_made_explained}}</p>
    </div>
    {{/invited}}
    {{#canInvite}}
    <p>{{t.admin_invite_explained}}</p>
    <form method="post" action="{{path}}/invite"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit">{{t.admin_invite}}</button></form>
    {{/canInvite}}
    {{^canInvite}}<p>{{t.admin_invite_no_email}}</p>{{/canInvite}}
    {{/main}}
    {{/layout}}
    """#

    static let sync = #"""
    {{<layout}}
    {{$title}}{{t.admin_sync}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_sync}} – {{org.name}}</h1>
    {{> admin_nav}}
    <p>{{t.admin_sync_intro}}</p>
    <form method="get" action="{{base}}/sync" class="filters">
    <div><label for="outcome">{{t.admin_outcome}}</label>
    <select id="outcome" name="outcome"><option value="">{{t.admin_all}}</option>{{#outcomes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/outcomes}}</select></div>
    <div><label for="status">{{t.admin_status}}</label>
    <select id="status" name="status"><option value="">{{t.admin_all}}</option>{{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/statuses}}</select></div>
    <div><label for="from">{{t.admin_from}}</label><input id="from" name="from" type="date" value="{{from}}"></div>
    <div><label for="to">{{t.admin_to}}</label><input id="to" name="to" type="date" value="{{to}}"></div>
    <button type="submit">{{t.admin_filter}}</button>
    </form>
    <p>{{summary}}</p>
    {{#hasEntries}}
    <div class="table-scroll" role="region" aria-labelledby="sync-caption" tabindex="0">
    <table>
    <caption id="sync-caption">{{t.admin_sync_caption}}</caption>
    <thead><tr><th scope="col">{{t.event_when}}</th><th scope="col">{{t.admin_member}}</th><th scope="col">{{t.event_what}}</th><th scope="col">{{t.admin_status}}</th></tr></thead>
    <tbody>
    {{#entries}}<tr><td><a href="{{href}}">{{when}}</a></td><td>{{member}}</td><td>{{what}}</td><td>{{state}}</td></tr>{{/entries}}
    </tbody>
    </table>
    </div>
    {{/hasEntries}}
    {{^entries}}<p>{{t.admin_no_entries}}</p>{{/entries}}
    {{> admin_paging}}
    {{/main}}
    {{/layout}}
    """#

    static let syncEntry = #"""
    {{<layout}}
    {{$title}}{{#error}}{{t.admin_error_prefix}} {{/error}}{{#status}}{{status}} – {{/status}}{{t.admin_sync_entry}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_sync_entry}}</h1>
    {{> admin_nav}}
    {{#error}}
    <div class="error-summary" role="alert" aria-labelledby="error-title">
    <h2 id="error-title">{{t.admin_error_summary}}</h2>
    <ul><li><a href="#keep-member">{{error}}</a></li></ul>
    </div>
    {{/error}}
    <dl>
    <dt>{{t.event_when}}</dt><dd>{{when}}</dd>
    <dt>{{t.admin_member}}</dt><dd>{{#memberLink}}<a href="{{memberLink}}">{{member}}</a>{{/memberLink}}{{^memberLink}}{{member}}{{/memberLink}}</dd>
    <dt>{{t.event_what}}</dt><dd>{{what}}</dd>
    <dt>{{t.admin_status}}</dt><dd>{{state}}</dd>
    </dl>
    {{#isConflict}}
    <h2 id="numbers">{{t.admin_numbers}}</h2>
    <dl aria-labelledby="numbers">
    <dt>{{t.admin_record_number}}</dt><dd class="number">{{memberNumber}}</dd>
    <dt>{{t.admin_login_number}}</dt><dd class="number">{{loginNumber}}</dd>
    </dl>
    {{#open}}
    {{#steppedUp}}
    {{^revealed}}<form method="post" action="{{path}}/reveal"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit" class="secondary">{{t.admin_reveal}}</button></form>{{/revealed}}
    <form method="post" action="{{path}}/resolve"><input type="hidden" name="csrf" value="{{csrf}}">
    <fieldset{{#error}} aria-describedby="keep-error"{{/error}}>
    <legend>{{t.admin_resolve_question}}</legend>
    {{#error}}<p class="error" id="keep-error">{{error}}</p>{{/error}}
    <div class="choice"><input type="radio" id="keep-member" name="keep" value="member"><label for="keep-member">{{t.admin_keep_member}}</label></div>
    <div class="choice"><input type="radio" id="keep-login" name="keep" value="login"><label for="keep-login">{{t.admin_keep_login}}</label></div>
    </fieldset>
    <button type="submit">{{t.admin_resolve}}</button>
    </form>
    {{/steppedUp}}
    {{^steppedUp}}{{> step_up_links}}{{/steppedUp}}
    {{/open}}
    {{/isConflict}}
    {{/main}}
    {{/layout}}
    """#

    static let stepUp = #"""
    {{<layout}}
    {{$title}}{{t.admin_step_up_title}}{{/title}}
    {{$main}}
    <h1>{{t.admin_step_up_title}}</h1>
    <p class="error">{{t.admin_step_up_nothing_changed}}</p>
    {{> step_up_links}}
    <p><a href="{{back}}">{{t.admin_back}}</a></p>
    {{/main}}
    {{/layout}}
    """#

    static let deliveries = #"""
    {{<layout}}
    {{$title}}{{#status}}{{status}} – {{/status}}{{t.admin_deliveries}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_deliveries}} – {{org.name}}</h1>
    {{> admin_nav}}
    <p>{{t.admin_deliveries_intro}}</p>
    <form method="get" action="{{base}}/deliveries" class="filters">
    <div><label for="status">{{t.admin_status}}</label>
    <select id="status" name="status"><option value="">{{t.admin_all}}</option>{{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/statuses}}</select></div>
    <button type="submit">{{t.admin_filter}}</button>
    </form>
    {{#hasMessages}}
    <div class="table-scroll" role="region" aria-labelledby="deliveries-caption" tabindex="0">
    <table>
    <caption id="deliveries-caption">{{t.admin_deliveries_caption}}</caption>
    <thead><tr><th scope="col">{{t.admin_created}}</th><th scope="col">{{t.admin_member}}</th><th scope="col">{{t.event_what}}</th><th scope="col">{{t.admin_status}}</th>
    <th scope="col">{{t.admin_attempts}}</th><th scope="col">{{t.admin_next_try}}</th><th scope="col">{{t.admin_last_error}}</th><th scope="col">{{t.admin_action}}</th></tr></thead>
    <tbody>
    {{#messages}}<tr><td>{{created}}</td><td>{{member}}</td><td>{{what}}</td><td>{{state}}</td><td>{{attempts}}</td><td>{{next}}</td><td>{{error}}</td>
    <td>{{#retryable}}<form method="post" action="{{base}}/deliveries/{{id}}/retry"><input type="hidden" name="csrf" value="{{csrf}}">
    <button type="submit" aria-label="{{t.admin_retry_now}}: {{member}}, {{created}}">{{t.admin_retry_now}}</button></form>{{/retryable}}{{^retryable}}–{{/retryable}}</td></tr>{{/messages}}
    </tbody>
    </table>
    </div>
    {{/hasMessages}}
    {{^messages}}<p>{{t.admin_no_deliveries}}</p>{{/messages}}
    {{/main}}
    {{/layout}}
    """#

    static let merge = #"""
    {{<layout}}
    {{$title}}{{#error}}{{t.admin_error_prefix}} {{/error}}{{t.admin_merge}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_merge}} – {{org.name}}</h1>
    {{> admin_nav}}
    <p>{{t.admin_merge_intro}}</p>
    {{#error}}
    <div class="error-summary" role="alert" aria-labelledby="error-title">
    <h2 id="error-title">{{t.admin_error_summary}}</h2>
    <ul><li><a href="#accounts">{{error}}</a></li></ul>
    </div>
    {{/error}}
    <form method="get" action="{{base}}/merge" role="search" class="filters">
    <div><label for="q">{{t.admin_search_name}}</label><input id="q" name="q" type="search" value="{{query}}" maxlength="100"></div>
    <button type="submit">{{t.admin_search}}</button>
    </form>
    {{#hasAccounts}}
    <form method="get" action="{{base}}/merge/preview">
    <div class="table-scroll" role="region" aria-labelledby="accounts-caption" tabindex="0" id="accounts">
    <table>
    <caption id="accounts-caption">{{t.admin_accounts_caption}}</caption>
    <thead><tr><th scope="col">{{t.admin_name}}</th><th scope="col">{{t.admin_email}}</th><th scope="col">{{t.admin_logins}}</th><th scope="col">{{t.admin_created}}</th>
    <th scope="col">{{t.admin_keep}}</th><th scope="col">{{t.admin_remove}}</th></tr></thead>
    <tbody>
    {{#accounts}}<tr><th scope="row">{{name}}</th><td>{{email}}</td><td>{{logins}}</td><td>{{created}}</td>
    <td><input type="radio" name="keep" value="{{id}}" id="keep-{{id}}" aria-label="{{t.admin_keep}}: {{name}}, {{logins}}"{{#keep}} checked{{/keep}}></td>
    <td><input type="radio" name="remove" value="{{id}}" id="remove-{{id}}" aria-label="{{t.admin_remove}}: {{name}}, {{logins}}"{{#remove}} checked{{/remove}}></td></tr>{{/accounts}}
    </tbody>
    </table>
    </div>
    <button type="submit">{{t.admin_preview}}</button>
    </form>
    {{/hasAccounts}}
    {{^accounts}}<p>{{t.admin_no_accounts}}</p>{{/accounts}}
    {{/main}}
    {{/layout}}
    """#

    static let account = #"""
    <dl>
    <dt>{{t.admin_name}}</dt><dd>{{name}}</dd>
    <dt>{{t.admin_email}}</dt><dd>{{email}}</dd>
    <dt>{{t.admin_logins}}</dt><dd>{{logins}}</dd>
    <dt>{{t.admin_roles}}</dt><dd>{{roles}}</dd>
    <dt>{{t.admin_devices_count}}</dt><dd>{{devices}}</dd>
    <dt>{{t.admin_activities}}</dt><dd>{{activities}}</dd>
    <dt>{{t.admin_claims}}</dt><dd>{{claims}}</dd>
    <dt>{{t.admin_contacts}}</dt><dd>{{contacts}}</dd>
    <dt>{{t.admin_sync_entries}}</dt><dd>{{syncEntries}}</dd>
    </dl>
    """#

    static let mergePreview = #"""
    {{<layout}}
    {{$title}}{{t.admin_merge_preview}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_merge_preview}}</h1>
    {{> admin_nav}}
    {{#refusal}}<div class="error-summary" role="alert"><h2>{{t.admin_merge_refused}}</h2><p>{{refusal}}</p></div>{{/refusal}}
    <div class="pair-columns">
    <section aria-labelledby="kept-title"><h2 id="kept-title">{{t.admin_kept_account}}</h2>{{#kept}}{{> merge_account}}{{/kept}}</section>
    <section aria-labelledby="removed-title"><h2 id="removed-title">{{t.admin_removed_account}}</h2>{{#removed}}{{> merge_account}}{{/removed}}</section>
    </div>
    <h2 id="moves">{{t.admin_what_moves}}</h2>
    <ul aria-labelledby="moves">{{#moves}}<li>{{.}}</li>{{/moves}}</ul>
    <p>{{t.admin_merge_after}}</p>
    {{^refusal}}
    {{#steppedUp}}
    <form method="post" action="{{base}}/merge"><input type="hidden" name="csrf" value="{{csrf}}">
    <input type="hidden" name="keep" value="{{keep}}"><input type="hidden" name="remove" value="{{remove}}">
    <input type="hidden" name="confirmation" value="{{confirmation}}">
    <button type="submit">{{t.admin_merge_confirm}}</button>
    </form>
    {{/steppedUp}}
    {{^steppedUp}}{{> step_up_links}}{{/steppedUp}}
    {{/refusal}}
    <p><a href="{{back}}">{{t.admin_merge_change}}</a></p>
    {{/main}}
    {{/layout}}
    """#

    static let mergeDone = #"""
    {{<layout}}
    {{$title}}{{#status}}{{status}} – {{/status}}{{t.admin_merge}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_kept_account}}</h1>
    {{> admin_nav}}
    {{#kept}}{{> merge_account}}{{/kept}}
    {{/main}}
    {{/layout}}
    """#

    static let audit = #"""
    {{<layout}}
    {{$title}}{{t.admin_audit}} – {{org.name}}{{/title}}
    {{$main}}
    <h1>{{t.admin_audit}} – {{org.name}}</h1>
    {{> admin_nav}}
    <p class="{{#intact}}verified{{/intact}}{{^intact}}error{{/intact}}">{{verification}}</p>
    <form method="get" action="{{base}}/audit" class="filters">
    <div><label for="kind">{{t.admin_kind}}</label>
    <select id="kind" name="kind"><option value="">{{t.admin_all}}</option>{{#kinds}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/kinds}}</select></div>
    <div><label for="member">{{t.admin_member}}</label>
    <select id="member" name="member"><option value="">{{t.admin_all}}</option>{{#members}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/members}}</select></div>
    <button type="submit">{{t.admin_filter}}</button>
    </form>
    <p>{{summary}}</p>
    {{#hasEvents}}
    <div class="table-scroll" role="region" aria-labelledby="audit-caption" tabindex="0">
    <table>
    <caption id="audit-caption">{{t.admin_audit_caption}}</caption>
    <thead><tr><th scope="col">{{t.admin_sequence}}</th><th scope="col">{{t.event_when}}</th><th scope="col">{{t.event_what}}</th><th scope="col">{{t.admin_who}}</th></tr></thead>
    <tbody>
    {{#events}}<tr><td>{{sequence}}</td><td>{{when}}</td><td>{{what}}</td><td>{{who}}</td></tr>{{/events}}
    </tbody>
    </table>
    </div>
    {{/hasEvents}}
    {{^events}}<p>{{t.admin_no_events}}</p>{{/events}}
    {{> admin_paging}}
    <h2 id="export">{{t.admin_export}}</h2>
    <form method="get" action="{{base}}/audit/export" class="filters">
    <div><label for="export-from">{{t.admin_from}}</label><input id="export-from" name="from" type="date" value="{{today}}" required></div>
    <div><label for="export-to">{{t.admin_to}}</label><input id="export-to" name="to" type="date" value="{{today}}" required></div>
    <fieldset><legend>{{t.admin_format}}</legend>
    <div class="choice"><input type="radio" id="format-csv" name="format" value="csv" checked><label for="format-csv">CSV</label></div>
    <div class="choice"><input type="radio" id="format-jsonl" name="format" value="jsonl"><label for="format-jsonl">{{t.admin_json_lines}}</label></div>
    </fieldset>
    <button type="submit">{{t.admin_download}}</button>
    </form>
    {{/main}}
    {{/layout}}
    """#

    static let passwordInvite = #"""
    {{<layout}}
    {{$title}}{{#hasErrors}}{{t.admin_error_prefix}} {{/hasErrors}}{{t.admin_choose_password}}{{/title}}
    {{$main}}
    <h1>{{t.admin_choose_password}}</h1>
    {{#hasErrors}}
    <div class="error-summary" role="alert" aria-labelledby="error-title">
    <h2 id="error-title">{{t.admin_error_summary}}</h2>
    <ul>{{#errors}}<li><a href="#{{field}}">{{text}}</a></li>{{/errors}}</ul>
    </div>
    {{/hasErrors}}
    <p>{{t.admin_choose_password_intro}}</p>
    <form method="post" action="{{action}}">
    <p><label for="password">{{t.admin_new_password}}</label>
    {{#passwordError}}<span class="error" id="password-error">{{passwordError}}</span>{{/passwordError}}
    <input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="128"{{#passwordError}} aria-invalid="true" aria-describedby="password-error"{{/passwordError}}></p>
    <p><label for="repeat">{{t.admin_repeat_password}}</label>
    {{#repeatError}}<span class="error" id="repeat-error">{{repeatError}}</span>{{/repeatError}}
    <input id="repeat" name="repeat" type="password" autocomplete="new-password" required minlength="10" maxlength="128"{{#repeatError}} aria-invalid="true" aria-describedby="repeat-error"{{/repeatError}}></p>
    <button type="submit">{{t.admin_save_password}}</button>
    </form>
    {{/main}}
    {{/layout}}
    """#

    static let notice = #"""
    {{<layout}}
    {{$title}}{{heading}}{{/title}}
    {{$main}}
    <h1>{{heading}}</h1>
    <p>{{#action}}<a class="button" href="{{href}}">{{label}}</a> {{/action}}<a href="/">{{t.go_to_start}}</a></p>
    {{/main}}
    {{/layout}}
    """#

    static let all: [(name: String, text: String)] = [
        ("admin_nav", nav), ("admin_paging", paging), ("step_up_links", stepUpLinks), ("merge_account", account),
        ("admin_home", home), ("admin_overview", overview), ("admin_members", members), ("admin_member", member),
        ("admin_sync", sync), ("admin_sync_entry", syncEntry), ("admin_step_up", stepUp), ("admin_deliveries", deliveries),
        ("admin_merge", merge), ("admin_merge_preview", mergePreview), ("admin_merge_done", mergeDone), ("admin_audit", audit),
        ("password_invite", passwordInvite), ("notice", notice),
    ]
}
