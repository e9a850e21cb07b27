<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
    <context>
        <name>DropHighlight</name>
        <message>
            <source>Drop files or folders to attach them</source>
            <translation>松开以附加这些文件或文件夹</translation>
        </message>
        <message>
            <source>Drop here to attach</source>
            <translation>拖放到此处以附加</translation>
        </message>
    </context>
    <context>
        <name>AddServerDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="53" />
            <source>Add an MCP server</source>
            <translation>添加 MCP 服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="55" />
            <source>Server name</source>
            <translation>服务器名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="58" />
            <source>Command that starts the server</source>
            <translation>启动服务器的命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="61" />
            <source>Server address</source>
            <translation>服务器地址</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="65" />
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="66" />
            <source>Command</source>
            <translation>命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="67" />
            <source>or address</source>
            <translation>或地址</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="90" />
            <source>Give a command or an address, not both.</source>
            <translation>请填写命令或地址，不要两者都填。</translation>
        </message>
    </context>
    <context>
        <name>AppearancePage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="436" />
            <source>Appearance</source>
            <translation>外观</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="437" />
            <source>OpenWorker follows your system's light or dark setting unless you choose one here.</source>
            <translation>OpenWorker 默认跟随系统的浅色或深色设置，你也可以在这里指定。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="442" />
            <source>System</source>
            <translation>跟随系统</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="442" />
            <source>Light</source>
            <translation>浅色</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="443" />
            <source>Dark</source>
            <translation>深色</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="446" />
            <source>Colour scheme</source>
            <translation>配色方案</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="447" />
            <source>System follows the platform's light or dark setting</source>
            <translation>“跟随系统”会使用系统的浅色或深色设置</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="450" />
            <source>System language</source>
            <translation>系统语言</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="453" />
            <source>Language</source>
            <translation>语言</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="454" />
            <source>Applies to windows opened from now on; restart for all</source>
            <translation>对之后打开的窗口生效；重启后全部生效</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="457" />
            <source>&amp;Colour scheme</source>
            <translation>配色方案(&amp;C)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="459" />
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="483" />
            <source>Restart OpenWorker to see every window in the new language.</source>
            <translation>重启 OpenWorker 后，所有窗口都会使用新语言。</translation>
        </message>
        <message>
            <source>Leave empty to name no author</source>
            <translation>留空则不署名</translation>
        </message>
        <message>
            <source>Your name</source>
            <translation>您的姓名</translation>
        </message>
        <message>
            <source>Written as the author of the documents OpenWorker makes for you</source>
            <translation>作为 OpenWorker 为您制作的文档的作者</translation>
        </message>
        <message>
            <source>Your &amp;name (author of documents)</source>
            <translation>您的姓名（文档作者）(&amp;N)</translation>
        </message>
    </context>
    <context>
        <name>ApprovalDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="351" />
            <source>Approval dialog</source>
            <translation>审批对话框</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="353" />
            <source>{tool} wants to run in {session}</source>
            <translation>{tool} 想在 {session} 中运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="358" />
            <source>From “{title}”</source>
            <translation>来自“{title}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="359" />
            <source>Session</source>
            <translation>会话</translation>
        </message>
        <message>
            <source>Approve {tool}?</source>
            <translation>批准 {tool}？</translation>
        </message>
        <message>
            <source>Session: {title}</source>
            <translation>会话：{title}</translation>
        </message>
    </context>
    <context>
        <name>ApprovalPanel</name>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="213" />
            <source>Approval needed</source>
            <translation>需要批准</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="225" />
            <source>Target: {target}</source>
            <translation>目标：{target}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="242" />
            <source>Diff preview</source>
            <translation>差异预览</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="242" />
            <source>Arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="243" />
            <source>What this call would do, exactly</source>
            <translation>这次调用具体会做什么</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="250" />
            <source>&amp;Approve once</source>
            <translation>批准一次(&amp;A)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="251" />
            <source>Approve once</source>
            <translation>批准一次</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="252" />
            <source>Run this call now, ask again next time</source>
            <translation>现在运行这次调用，下次仍会询问</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="255" />
            <source>A&amp;lways for {target}</source>
            <translation>始终允许 {target}(&amp;L)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="256" />
            <source>A&amp;lways allow</source>
            <translation>始终允许(&amp;L)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="257" />
            <source>Always allow</source>
            <translation>始终允许</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="259" />
            <source>Allow {tool} for this exact target from now on</source>
            <translation>从现在起，对这个目标始终允许 {tool}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="262" />
            <source>&amp;Deny</source>
            <translation>拒绝(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="263" />
            <source>Deny</source>
            <translation>拒绝</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="264" />
            <source>Do not run this call</source>
            <translation>不运行这次调用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="273" />
            <source>Approval request: {question}</source>
            <translation>批准请求：{question}</translation>
        </message>
        <message>
            <source>reads data</source>
            <translation>读取数据</translation>
        </message>
        <message>
            <source>changes files on this computer</source>
            <translation>修改这台电脑上的文件</translation>
        </message>
        <message>
            <source>runs a command</source>
            <translation>运行命令</translation>
        </message>
        <message>
            <source>acts outside this computer</source>
            <translation>在这台电脑之外执行操作</translation>
        </message>
        <message>
            <source>&lt;b&gt;Approval needed:&lt;/b&gt; {tool}</source>
            <translation>&lt;b&gt;需要审批：&lt;/b&gt;{tool}</translation>
        </message>
        <message>
            <source>Risk: {risk} ({words})</source>
            <translation>风险：{risk}（{words}）</translation>
        </message>
        <message>
            <source> · Target: {target}</source>
            <translation> · 目标：{target}</translation>
        </message>
        <message>
            <source>Approval request for {tool}</source>
            <translation>{tool} 的审批请求</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="245" />
            <source>What the server says this tool does</source>
            <translation>服务器对此工具的说明</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="303" />
            <source>The MCP server {server} says this tool does: {text}</source>
            <translation>MCP 服务器 {server} 对此工具的说明：{text}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="305" />
            <source>Its server says this tool does: {text}</source>
            <translation>其服务器对此工具的说明：{text}</translation>
        </message>
        <message>
            <source>A&amp;lways for this task: this exact command</source>
            <translation>此任务始终允许这条命令(&amp;L)</translation>
        </message>
        <message>
            <source>Always for this task</source>
            <translation>此任务始终允许</translation>
        </message>
        <message>
            <source>Let this scheduled task run this exact command from now on without asking</source>
            <translation>从现在起，此计划任务运行这条命令时不再询问</translation>
        </message>
    </context>
    <context>
        <name>ArtifactsPanel</name>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="176" />
            <source>Deliverables</source>
            <translation>成果文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="188" />
            <source>Deliverables of this session</source>
            <translation>本会话的成果文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="191" />
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="238" />
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="285" />
            <source>No deliverables yet.</source>
            <translation>尚无成果文件。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="196" />
            <source>Document preview</source>
            <translation>文档预览</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="198" />
            <source>Table preview</source>
            <translation>表格预览</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="202" />
            <source>Page preview</source>
            <translation>页面预览</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="212" />
            <source>Open</source>
            <translation>打开</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="213" />
            <source>Reveal in folder</source>
            <translation>在文件夹中显示</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="214" />
            <source>Open the deliverable</source>
            <translation>打开成果文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="215" />
            <source>Show the deliverable in its folder</source>
            <translation>在所在文件夹中显示成果文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/artifacts_panel.py" line="287" />
            <source>Loading the preview…</source>
            <translation>正在加载预览…</translation>
        </message>
        <message>
            <source>PDF preview is not available on this system.</source>
            <translation>此系统无法预览 PDF。</translation>
        </message>
        <message>
            <source>This PDF could not be read.</source>
            <translation>无法读取此 PDF。</translation>
        </message>
        <message>
            <source>This PDF could not be rendered.</source>
            <translation>无法渲染此 PDF。</translation>
        </message>
        <message>
            <source>This file is no longer there.</source>
            <translation>此文件已不存在。</translation>
        </message>
        <message>
            <source>This image could not be read.</source>
            <translation>无法读取此图片。</translation>
        </message>
        <message>
            <source>This file could not be read: {error}</source>
            <translation>无法读取此文件：{error}</translation>
        </message>
        <message>
            <source>View</source>
            <translation>查看</translation>
        </message>
        <message>
            <source>View the deliverable and its versions</source>
            <translation>查看成果文件及其各版本</translation>
        </message>
        <message>
            <source>{name} · {n} versions</source>
            <translation>{name} · {n} 个版本</translation>
        </message>
    </context>
    <context>
        <name>AutomationEditor</name>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="109" />
            <source>New automation</source>
            <translation>新建自动任务</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="110" />
            <source>Edit automation</source>
            <translation>编辑自动任务</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="114" />
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="116" />
            <source>Instructions</source>
            <translation>指令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="117" />
            <source>What should OpenWorker do each time?</source>
            <translation>OpenWorker 每次应该做什么？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="118" />
            <source>Repeat</source>
            <translation>重复</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="119" />
            <source>Once</source>
            <translation>仅一次</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="128" />
            <source>Schedule presets</source>
            <translation>常用计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="129" />
            <source>In words — “every weekday at 9am”, “every day at 18:30”, “every 15 minutes”, “on the 1st of every month at 9am” — or as cron: minute hour day-of-month month day-of-week, e.g. 0 8 * * 1-5</source>
            <translation>用文字写——“每个工作日 9:00”“每天 18:30”“每 15 分钟”“每月1日 9:00”——或用 cron：分 时 日 月 星期，例如 0 8 * * 1-5</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="133" />
            <source>Date and time</source>
            <translation>日期和时间</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="139" />
            <source>Time zone</source>
            <translation>时区</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="143" />
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="144" />
            <source>the default model</source>
            <translation>默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="146" />
            <source>Folder</source>
            <translation>文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="148" />
            <source>Missed runs</source>
            <translation>错过的运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="149" />
            <source>Run once when the app starts</source>
            <translation>应用启动时补运行一次</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="150" />
            <source>Skip them</source>
            <translation>跳过</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="155" />
            <source>Never wait</source>
            <translation>从不等待</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="157" />
            <source>Wait for power below</source>
            <translation>电量低于此值时等待接通电源</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="158" />
            <source>On battery below this level, a due run waits until the computer is plugged in</source>
            <translation>使用电池且电量低于此值时，到期的运行会等到电脑接通电源后再开始</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="163" />
            <source>Schedule preview</source>
            <translation>计划预览</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="167" />
            <source>When</source>
            <translation>时间</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="168" />
            <source>e.g. every weekday at 9am</source>
            <translation>例如：每个工作日 9:00</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="174" />
            <source>On battery, wait for power below</source>
            <translation>使用电池时，电量低于此值则等待接通电源</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="215" />
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="216" />
            <source>{words}
Next runs (your time): {when}</source>
            <translation>{words}
接下来的运行（你的时间）：{when}</translation>
        </message>
        <message>
            <source>Custom</source>
            <translation>自定义</translation>
        </message>
        <message>
            <source>Schedule</source>
            <translation>计划</translation>
        </message>
    </context>
    <context>
        <name>AutomationsWindow</name>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="264" />
            <source>Automations — OpenWorker Qt</source>
            <translation>自动任务 — OpenWorker Qt</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="265" />
            <source>Automations</source>
            <translation>自动任务</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="266" />
            <source>All automations are paused: only Run now works.</source>
            <translation>所有自动任务都已暂停：只有“立即运行”可用。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="271" />
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="271" />
            <source>Schedule</source>
            <translation>计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="271" />
            <source>Next run</source>
            <translation>下次运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="272" />
            <source>Last run</source>
            <translation>上次运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="277" />
            <source>Run history</source>
            <translation>运行记录</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="278" />
            <source>Press Enter to open the run's session</source>
            <translation>按 Enter 打开这次运行的会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="279" />
            <source>Started</source>
            <translation>开始时间</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="279" />
            <source>Why</source>
            <translation>原因</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="279" />
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="280" />
            <source>Deliverables</source>
            <translation>成果文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="283" />
            <source>&amp;New…</source>
            <translation>新建(&amp;N)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="284" />
            <source>&amp;Edit…</source>
            <translation>编辑(&amp;E)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="285" />
            <source>&amp;Run now</source>
            <translation>立即运行(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="286" />
            <source>&amp;Pause</source>
            <translation>暂停(&amp;P)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="287" />
            <source>&amp;Delete</source>
            <translation>删除(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="327" />
            <source>paused</source>
            <translation>已暂停</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="330" />
            <source>{status} — not seen yet</source>
            <translation>{status} — 尚未查看</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="336" />
            <source>last run failed, not seen yet</source>
            <translation>上次运行失败，尚未查看</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="358" />
            <source>on schedule</source>
            <translation>按计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="358" />
            <source>catch-up</source>
            <translation>补运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="359" />
            <source>run now</source>
            <translation>立即运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="359" />
            <source>woken</source>
            <translation>唤醒后运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="372" />
            <source>&amp;Resume</source>
            <translation>继续(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="403" />
            <source>Delete automation</source>
            <translation>删除自动任务</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="404" />
            <source>Delete “{name}”? Its past runs stay in your sessions.</source>
            <translation>删除“{name}”？它以往的运行仍保留在你的会话中。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="429" />
            <source>never ran</source>
            <translation>从未运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="430" />
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="431" />
            <source>waiting for you</source>
            <translation>等待你处理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="432" />
            <source>completed</source>
            <translation>已完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="433" />
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="434" />
            <source>skipped</source>
            <translation>已跳过</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="89" />
            <source>%a %d %b %H:%M</source>
            <translation>%m月%d日 %H:%M</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="291" />
            <source>No automations yet. New… makes one: instructions that run on a schedule, each run in a session of its own.</source>
            <translation>还没有自动任务。点击“新建…”创建一个：按计划运行的指令，每次运行都在单独的会话中进行。</translation>
        </message>
        <message>
            <source>A&amp;lways for this task: this exact command</source>
            <translation>此任务始终允许这条命令(&amp;L)</translation>
        </message>
        <message>
            <source>Let this task run the command from now on without asking</source>
            <translation>从现在起，此任务运行这条命令时不再询问</translation>
        </message>
        <message>
            <source>Allowed without asking</source>
            <translation>无需询问即可执行</translation>
        </message>
        <message>
            <source>What</source>
            <translation>内容</translation>
        </message>
        <message>
            <source>Limit</source>
            <translation>限制</translation>
        </message>
        <message>
            <source>Re&amp;move</source>
            <translation>移除(&amp;M)</translation>
        </message>
        <message>
            <source>The task's runs will ask again before doing this</source>
            <translation>此任务的运行在执行这项操作前会重新询问</translation>
        </message>
        <message>
            <source>Run the command `{command}`</source>
            <translation>运行命令 `{command}`</translation>
        </message>
        <message>
            <source>{tool} on {target}</source>
            <translation>{tool}：{target}</translation>
        </message>
        <message>
            <source>1 use left</source>
            <translation>还可使用 1 次</translation>
        </message>
        <message>
            <source>{n} uses left</source>
            <translation>还可使用 {n} 次</translation>
        </message>
        <message>
            <source>until {when}</source>
            <translation>直到 {when}</translation>
        </message>
        <message>
            <source>always</source>
            <translation>始终</translation>
        </message>
        <message>
            <source>Waiting for your answer on #{n}: run `{command}`</source>
            <translation>等待你对 #{n} 的答复：运行 `{command}`</translation>
        </message>
    </context>
    <context>
        <name>Banner</name>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="120" />
            <location filename="../../openworker_qt/ui/main_window.py" line="135" />
            <source>No action</source>
            <translation>无操作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="123" />
            <source>Dismiss message</source>
            <translation>关闭消息</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="129" />
            <source>Message banner</source>
            <translation>消息横幅</translation>
        </message>
    </context>
    <context>
        <name>Composer</name>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="137" />
            <source>Describe the outcome you want… (Enter sends, Shift+Enter for a new line)</source>
            <extracomment>The attachments of the last message submitted, to put back if it is not sent.</extracomment>
            <translation>描述你想要的结果……（Enter 发送，Shift+Enter 换行）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="139" />
            <source>Message</source>
            <translation>消息</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="141" />
            <source>Type what you want done. Enter sends; while a turn runs, it steers it.</source>
            <translation>输入你想完成的事。按 Enter 发送；运行中发送的消息会用于引导当前任务。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="149" />
            <source>Persona</source>
            <translation>角色</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="149" />
            <source>Which agent works on this session</source>
            <translation>由哪个智能体处理这个会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="150" />
            <source>Permission mode</source>
            <translation>权限模式</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="151" />
            <source>What the agent may do without asking</source>
            <translation>智能体无需询问即可做的事</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="157" />
            <source>Model</source>
            <translation>模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="158" />
            <source>The model for the next call; provider:model</source>
            <translation>下一次调用使用的模型；格式为 提供商:模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="159" />
            <source>Model (provider:model)</source>
            <translation>模型（提供商:模型）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="160" />
            <source>Attach…</source>
            <translation>附件…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="160" />
            <source>Attach files</source>
            <translation>添加附件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="161" />
            <source>Add files or a folder to this message</source>
            <translation>为这条消息添加文件或文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="163" />
            <location filename="../../openworker_qt/ui/composer.py" line="282" />
            <source>Send</source>
            <translation>发送</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="164" />
            <location filename="../../openworker_qt/ui/composer.py" line="286" />
            <source>Send the message (Enter)</source>
            <translation>发送消息（Enter）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="166" />
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="167" />
            <source>Stop the running turn (Esc)</source>
            <translation>停止正在运行的任务（Esc）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="194" />
            <source>Model name</source>
            <translation>模型名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="282" />
            <source>Steer</source>
            <translation>引导</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="285" />
            <source>Inject this message after the current step</source>
            <translation>在当前步骤之后插入这条消息</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="344" />
            <source>Attachment {name}</source>
            <translation>附件 {name}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="345" />
            <source>Press to remove this attachment</source>
            <translation>按下即可移除此附件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="195" />
            <source>Choose a model</source>
            <translation>选择模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="490" />
            <source>Attach</source>
            <translation>附加</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="491" />
            <source>Files…</source>
            <translation>文件…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="493" />
            <source>From an MCP server…</source>
            <translation>来自 MCP 服务器…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="494" />
            <source>Attach something one of your MCP servers offers</source>
            <translation>附加某个 MCP 服务器提供的内容</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="496" />
            <source>Prompt from an MCP server…</source>
            <translation>来自 MCP 服务器的提示词…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="497" />
            <source>Start the message from a prompt an MCP server offers (or type /)</source>
            <translation>用 MCP 服务器提供的提示词开始写消息（或输入 /）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="500" />
            <source>Add files, a folder, or something from an MCP server</source>
            <translation>添加文件、文件夹，或来自 MCP 服务器的内容</translation>
        </message>
        <message>
            <source>Just talk</source>
            <translation>只聊天</translation>
        </message>
        <message>
            <source>Plan first</source>
            <translation>先出计划</translation>
        </message>
        <message>
            <source>Ask before changes</source>
            <translation>改动前先问</translation>
        </message>
        <message>
            <source>Work on its own</source>
            <translation>自主工作</translation>
        </message>
        <message>
            <source>My rules</source>
            <translation>我的规则</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/composer.py" line="350" />
            <source>Offline demo</source>
            <translation>离线演示</translation>
        </message>
        <message>
            <source>Custom server</source>
            <translation>自定义服务器</translation>
        </message>
    </context>
    <context>
        <name>ConnectorCard</name>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="110" />
            <source>{name} icon</source>
            <translation>{name} 图标</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="120" />
            <source>{name}: connection state</source>
            <translation>{name}：连接状态</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="121" />
            <source>Set up</source>
            <translation>设置</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="133" />
            <source>&lt;b&gt;Reads&lt;/b&gt;: {what}</source>
            <translation>&lt;b&gt;读取&lt;/b&gt;：{what}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="135" />
            <source>&lt;b&gt;Does, after asking you&lt;/b&gt;: {what}</source>
            <translation>&lt;b&gt;征得你同意后执行&lt;/b&gt;：{what}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="147" />
            <source>Connected</source>
            <translation>已连接</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="147" />
            <source>Needs attention</source>
            <translation>需要处理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="148" />
            <source>Not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="152" />
            <source>Manage</source>
            <translation>管理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="155" />
            <source>Manage {name}</source>
            <translation>管理 {name}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="156" />
            <source>Set up {name}</source>
            <translation>设置 {name}</translation>
        </message>
    </context>
    <context>
        <name>ConnectorCatalog</name>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="171" />
            <source>Connector catalogue</source>
            <translation>连接器目录</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="182" />
            <source>What OpenWorker can work with. It reads from a connected service freely and asks you before it sends, posts or changes anything there.</source>
            <translation>OpenWorker 可以配合使用的服务。它可以随时读取已连接服务中的内容，但在发送、发布或更改任何内容之前都会先征求你的同意。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="189" />
            <source>Search by name, category or what it does</source>
            <translation>按名称、类别或功能搜索</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="191" />
            <source>Search connectors</source>
            <translation>搜索连接器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="192" />
            <source>Filter the connectors as you type</source>
            <translation>边输入边筛选连接器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="194" />
            <source>Clear search</source>
            <translation>清除搜索</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="196" />
            <source>Category</source>
            <translation>类别</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="201" />
            <source>How many connectors are shown</source>
            <translation>显示的连接器数量</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="217" />
            <source>All categories</source>
            <translation>所有类别</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="270" />
            <source>{shown} of {all} connectors · {connected} connected</source>
            <translation>显示 {shown} / {all} 个连接器 · 已连接 {connected} 个</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/connector_catalog.py" line="273" />
            <source>No connector matches “{text}”.</source>
            <translation>没有与“{text}”匹配的连接器。</translation>
        </message>
    </context>
    <context>
        <name>Connectors</name>
        <message>
            <source>Chat</source>
            <translation>聊天</translation>
        </message>
        <message>
            <source>Read and post in channels and threads; an @mention in a thread starts a session that answers there.</source>
            <translation>读取并发送频道和话题中的消息；在话题中 @提及 应用会开始一个会话，并在该话题中回复。</translation>
        </message>
        <message>
            <source>Mentions in Slack are heard from the next start of OpenWorker.</source>
            <translation>下次启动 OpenWorker 后即可响应 Slack 中的提及。</translation>
        </message>
        <message>
            <source>Bot token</source>
            <translation>机器人令牌</translation>
        </message>
        <message>
            <source>xoxb-… from your Slack app → OAuth &amp; Permissions (scopes: app_mentions:read, channels:history, chat:write, files:write, reactions:write).</source>
            <translation>xoxb-…，在你的 Slack 应用的“OAuth &amp; Permissions”页面获取（权限范围：app_mentions:read、channels:history、chat:write、files:write、reactions:write）。</translation>
        </message>
        <message>
            <source>App-level token</source>
            <translation>应用级令牌</translation>
        </message>
        <message>
            <source>xapp-… from Basic Information → App-Level Tokens (scope connections:write), with Socket Mode turned on. Without it the app can post but does not hear mentions.</source>
            <translation>xapp-…，在“Basic Information”→“App-Level Tokens”中获取（权限范围 connections:write），并需开启“Socket Mode”。没有它，应用可以发消息，但收不到提及。</translation>
        </message>
        <message>
            <source>User token (for search)</source>
            <translation>用户令牌（用于搜索）</translation>
        </message>
        <message>
            <source>xoxp-… with search:read; only needed to search messages.</source>
            <translation>xoxp-…，需要 search:read 权限；仅在搜索消息时需要。</translation>
        </message>
        <message>
            <source>Allowed members</source>
            <translation>允许的成员</translation>
        </message>
        <message>
            <source>Slack member IDs (comma-separated, e.g. U024BE7LH) who may start sessions by mentioning the app and answer its approvals from Slack. Nobody else can.</source>
            <translation>可以通过提及应用来开始会话、并在 Slack 中答复审批的 Slack 成员 ID（用逗号分隔，例如 U024BE7LH）。其他人都不可以。</translation>
        </message>
        <message>
            <source>Read a channel's recent messages.</source>
            <translation>读取频道的最近消息。</translation>
        </message>
        <message>
            <source>Read a thread's messages.</source>
            <translation>读取话题中的消息。</translation>
        </message>
        <message>
            <source>Search messages (Slack search syntax).</source>
            <translation>搜索消息（使用 Slack 搜索语法）。</translation>
        </message>
        <message>
            <source>Post a message to a channel or a thread.</source>
            <translation>向频道或话题发送消息。</translation>
        </message>
        <message>
            <source>Upload a file to a channel or thread (asked for on its own: a permission to post messages does not cover files).</source>
            <translation>向频道或话题上传文件（单独请求许可：发送消息的许可不包括文件）。</translation>
        </message>
        <message>
            <source>Add an emoji reaction to a message.</source>
            <translation>为消息添加表情回应。</translation>
        </message>
        <message>
            <source>Code</source>
            <translation>代码</translation>
        </message>
        <message>
            <source>Issues, pull requests and comments in your repositories.</source>
            <translation>你的仓库中的议题、拉取请求和评论。</translation>
        </message>
        <message>
            <source>Personal access token</source>
            <translation>个人访问令牌</translation>
        </message>
        <message>
            <source>Create a fine-grained token at github.com → Settings → Developer settings → Personal access tokens, with read access to issues (and write access to comment).</source>
            <translation>在 github.com 的“Settings”→“Developer settings”→“Personal access tokens”中创建细粒度令牌，授予议题的读取权限（如需评论，还需写入权限）。</translation>
        </message>
        <message>
            <source>API address</source>
            <translation>API 地址</translation>
        </message>
        <message>
            <source>Only for GitHub Enterprise Server, e.g. https://github.example.com/api/v3.</source>
            <translation>仅用于 GitHub Enterprise Server，例如 https://github.example.com/api/v3。</translation>
        </message>
        <message>
            <source>List a repository's issues and pull requests.</source>
            <translation>列出仓库的议题和拉取请求。</translation>
        </message>
        <message>
            <source>Comment on an issue or pull request.</source>
            <translation>评论议题或拉取请求。</translation>
        </message>
        <message>
            <source>Issues and merge requests on gitlab.com or your own GitLab.</source>
            <translation>gitlab.com 或你自建的 GitLab 上的议题和合并请求。</translation>
        </message>
        <message>
            <source>GitLab → Preferences → Access tokens; scope read_api (api to comment).</source>
            <translation>在 GitLab 中打开“Preferences”→“Access tokens”；权限范围 read_api（评论需要 api）。</translation>
        </message>
        <message>
            <source>Only for a self-managed GitLab, e.g. https://gitlab.example.com/api/v4.</source>
            <translation>仅用于自建的 GitLab，例如 https://gitlab.example.com/api/v4。</translation>
        </message>
        <message>
            <source>List a project's issues.</source>
            <translation>列出项目的议题。</translation>
        </message>
        <message>
            <source>Comment on an issue.</source>
            <translation>评论议题。</translation>
        </message>
        <message>
            <source>Calendar</source>
            <translation>日历</translation>
        </message>
        <message>
            <source>Your events; new events on a calendar you choose.</source>
            <translation>你的日程；在你选择的日历上新建日程。</translation>
        </message>
        <message>
            <source>OAuth client id</source>
            <translation>OAuth 客户端 ID</translation>
        </message>
        <message>
            <source>Your own Desktop app client from Google Cloud Console → APIs &amp; Services → Credentials; then use Sign in.</source>
            <translation>你自己的桌面应用客户端，在 Google Cloud Console 的“APIs &amp; Services”→“Credentials”中创建；然后点击“登录”。</translation>
        </message>
        <message>
            <source>OAuth client secret</source>
            <translation>OAuth 客户端密钥</translation>
        </message>
        <message>
            <source>The client's secret, if it has one.</source>
            <translation>客户端的密钥（如果有）。</translation>
        </message>
        <message>
            <source>Sign-in</source>
            <translation>登录凭据</translation>
        </message>
        <message>
            <source>Filled in by Sign in with Google.</source>
            <translation>通过 Google 登录后自动填写。</translation>
        </message>
        <message>
            <source>Access token (instead)</source>
            <translation>访问令牌（替代方式）</translation>
        </message>
        <message>
            <source>A pasted access token works until it expires (about an hour): for a quick try.</source>
            <translation>粘贴的访问令牌在过期前（约一小时）有效，适合快速试用。</translation>
        </message>
        <message>
            <source>List events between two times (RFC 3339).</source>
            <translation>列出两个时间之间的日程（RFC 3339 格式）。</translation>
        </message>
        <message>
            <source>Create an event (attendees get an invitation).</source>
            <translation>新建日程（参与者会收到邀请）。</translation>
        </message>
        <message>
            <source>Mail</source>
            <translation>邮件</translation>
        </message>
        <message>
            <source>Search your mail and send messages.</source>
            <translation>搜索你的邮件并发送邮件。</translation>
        </message>
        <message>
            <source>Search mail with Gmail's search syntax (from:, is:unread, …).</source>
            <translation>使用 Gmail 搜索语法搜索邮件（from:、is:unread 等）。</translation>
        </message>
        <message>
            <source>Send an e-mail.</source>
            <translation>发送电子邮件。</translation>
        </message>
        <message>
            <source>Outlook mail and calendar through Microsoft Graph.</source>
            <translation>通过 Microsoft Graph 访问 Outlook 邮件和日历。</translation>
        </message>
        <message>
            <source>Your own Desktop app client from the Microsoft Entra admin center → App registrations (a public client with the redirect http://localhost); then use Sign in.</source>
            <translation>你自己的桌面应用客户端，在 Microsoft Entra 管理中心的“App registrations”中注册（公共客户端，重定向地址为 http://localhost）；然后点击“登录”。</translation>
        </message>
        <message>
            <source>Filled in by Sign in with Microsoft.</source>
            <translation>通过 Microsoft 登录后自动填写。</translation>
        </message>
        <message>
            <source>List recent mail, optionally matching a search.</source>
            <translation>列出最近的邮件，可按搜索条件筛选。</translation>
        </message>
        <message>
            <source>List calendar events between two times (ISO 8601).</source>
            <translation>列出两个时间之间的日历日程（ISO 8601 格式）。</translation>
        </message>
        <message>
            <source>Projects</source>
            <translation>项目</translation>
        </message>
        <message>
            <source>Search issues with JQL and comment on them.</source>
            <translation>使用 JQL 搜索议题并发表评论。</translation>
        </message>
        <message>
            <source>Site address</source>
            <translation>站点地址</translation>
        </message>
        <message>
            <source>Your Atlassian site, e.g. https://acme.atlassian.net.</source>
            <translation>你的 Atlassian 站点，例如 https://acme.atlassian.net。</translation>
        </message>
        <message>
            <source>Account e-mail</source>
            <translation>账户邮箱</translation>
        </message>
        <message>
            <source>The e-mail address you sign in to Atlassian with.</source>
            <translation>你登录 Atlassian 使用的邮箱地址。</translation>
        </message>
        <message>
            <source>API token</source>
            <translation>API 令牌</translation>
        </message>
        <message>
            <source>Create one at id.atlassian.com → Security → API tokens.</source>
            <translation>在 id.atlassian.com 的“Security”→“API tokens”中创建。</translation>
        </message>
        <message>
            <source>Search issues with JQL (default: open issues assigned to me).</source>
            <translation>使用 JQL 搜索议题（默认：分配给我的未关闭议题）。</translation>
        </message>
        <message>
            <source>Docs</source>
            <translation>文档</translation>
        </message>
        <message>
            <source>Search pages and create new ones.</source>
            <translation>搜索页面并新建页面。</translation>
        </message>
        <message>
            <source>Search pages by text or CQL.</source>
            <translation>按文本或 CQL 搜索页面。</translation>
        </message>
        <message>
            <source>Create a page in a space.</source>
            <translation>在空间中新建页面。</translation>
        </message>
        <message>
            <source>Your assigned issues; comments on issues.</source>
            <translation>分配给你的议题；评论议题。</translation>
        </message>
        <message>
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <source>Linear → Settings → Security &amp; access → Personal API keys.</source>
            <translation>在 Linear 中打开“Settings”→“Security &amp; access”→“Personal API keys”。</translation>
        </message>
        <message>
            <source>List the open issues assigned to me.</source>
            <translation>列出分配给我的未关闭议题。</translation>
        </message>
        <message>
            <source>Search pages shared with the integration; add text to a page.</source>
            <translation>搜索共享给该集成的页面；向页面添加文字。</translation>
        </message>
        <message>
            <source>Integration secret</source>
            <translation>集成密钥</translation>
        </message>
        <message>
            <source>Notion → Settings → Connections → Develop or manage integrations; then share the pages with the integration.</source>
            <translation>在 Notion 中打开“Settings”→“Connections”→“Develop or manage integrations”；然后将页面共享给该集成。</translation>
        </message>
        <message>
            <source>Search pages and databases by title.</source>
            <translation>按标题搜索页面和数据库。</translation>
        </message>
        <message>
            <source>Append paragraphs to a page.</source>
            <translation>在页面末尾添加段落。</translation>
        </message>
        <message>
            <source>Any mail provider: read over IMAP, send over SMTP.</source>
            <translation>适用于任何邮件服务商：通过 IMAP 收取，通过 SMTP 发送。</translation>
        </message>
        <message>
            <source>IMAP server</source>
            <translation>IMAP 服务器</translation>
        </message>
        <message>
            <source>e.g. imap.fastmail.com</source>
            <translation>例如 imap.fastmail.com</translation>
        </message>
        <message>
            <source>IMAP port</source>
            <translation>IMAP 端口</translation>
        </message>
        <message>
            <source>993 for TLS</source>
            <translation>TLS 使用 993</translation>
        </message>
        <message>
            <source>SMTP server</source>
            <translation>SMTP 服务器</translation>
        </message>
        <message>
            <source>e.g. smtp.fastmail.com</source>
            <translation>例如 smtp.fastmail.com</translation>
        </message>
        <message>
            <source>SMTP port</source>
            <translation>SMTP 端口</translation>
        </message>
        <message>
            <source>587 (STARTTLS)</source>
            <translation>587（STARTTLS）</translation>
        </message>
        <message>
            <source>User name</source>
            <translation>用户名</translation>
        </message>
        <message>
            <source>usually your address</source>
            <translation>通常是你的邮箱地址</translation>
        </message>
        <message>
            <source>From address</source>
            <translation>发件人地址</translation>
        </message>
        <message>
            <source>if not the user name</source>
            <translation>如果与用户名不同</translation>
        </message>
        <message>
            <source>Password</source>
            <translation>密码</translation>
        </message>
        <message>
            <source>an app password where your provider offers them</source>
            <translation>如果服务商提供应用专用密码，请使用应用专用密码</translation>
        </message>
        <message>
            <source>Search a mail folder (newest first).</source>
            <translation>搜索邮件文件夹（最新的在前）。</translation>
        </message>
        <message>
            <source>Your open tasks; comments on tasks.</source>
            <translation>你未完成的任务；评论任务。</translation>
        </message>
        <message>
            <source>Asana → Settings → Apps → Developer apps → Personal access tokens.</source>
            <translation>在 Asana 中打开“Settings”→“Apps”→“Developer apps”→“Personal access tokens”。</translation>
        </message>
        <message>
            <source>List my incomplete tasks.</source>
            <translation>列出我未完成的任务。</translation>
        </message>
        <message>
            <source>Comment on a task.</source>
            <translation>评论任务。</translation>
        </message>
        <message>
            <source>Items on your boards; updates on items.</source>
            <translation>你的看板上的条目；在条目上发布更新。</translation>
        </message>
        <message>
            <source>monday.com → your avatar → Developers → My access tokens.</source>
            <translation>在 monday.com 中点击你的头像 →“Developers”→“My access tokens”。</translation>
        </message>
        <message>
            <source>List a board's items.</source>
            <translation>列出看板的条目。</translation>
        </message>
        <message>
            <source>Post an update on an item.</source>
            <translation>在条目上发布更新。</translation>
        </message>
        <message>
            <source>Sales</source>
            <translation>销售</translation>
        </message>
        <message>
            <source>Search contacts; add notes to them.</source>
            <translation>搜索联系人；为联系人添加备注。</translation>
        </message>
        <message>
            <source>Private app token</source>
            <translation>私有应用令牌</translation>
        </message>
        <message>
            <source>HubSpot → Settings → Integrations → Private apps (scopes crm.objects.contacts.read and .write).</source>
            <translation>在 HubSpot 中打开“Settings”→“Integrations”→“Private apps”（权限范围 crm.objects.contacts.read 和 .write）。</translation>
        </message>
        <message>
            <source>Search contacts by name, e-mail or company.</source>
            <translation>按姓名、邮箱或公司搜索联系人。</translation>
        </message>
        <message>
            <source>Add a note to a contact.</source>
            <translation>为联系人添加备注。</translation>
        </message>
        <message>
            <source>Operations</source>
            <translation>运维</translation>
        </message>
        <message>
            <source>Open incidents; acknowledge one.</source>
            <translation>未解决的事件；确认事件。</translation>
        </message>
        <message>
            <source>User API token</source>
            <translation>用户 API 令牌</translation>
        </message>
        <message>
            <source>PagerDuty → My Profile → User Settings → Create API User Token.</source>
            <translation>在 PagerDuty 中打开“My Profile”→“User Settings”→“Create API User Token”。</translation>
        </message>
        <message>
            <source>Your PagerDuty e-mail</source>
            <translation>你的 PagerDuty 邮箱</translation>
        </message>
        <message>
            <source>Sent as the From of what you change.</source>
            <translation>作为你所做更改的发起人（From）发送。</translation>
        </message>
        <message>
            <source>List triggered and acknowledged incidents.</source>
            <translation>列出已触发和已确认的事件。</translation>
        </message>
        <message>
            <source>Acknowledge an incident.</source>
            <translation>确认事件。</translation>
        </message>
        <message>
            <source>Monitors in alert; mute a monitor.</source>
            <translation>处于告警状态的监控；将监控静音。</translation>
        </message>
        <message>
            <source>Datadog → Organization Settings → API Keys.</source>
            <translation>在 Datadog 中打开“Organization Settings”→“API Keys”。</translation>
        </message>
        <message>
            <source>Application key</source>
            <translation>应用密钥</translation>
        </message>
        <message>
            <source>Organization Settings → Application Keys.</source>
            <translation>在“Organization Settings”→“Application Keys”中创建。</translation>
        </message>
        <message>
            <source>Site</source>
            <translation>站点</translation>
        </message>
        <message>
            <source>datadoghq.com, datadoghq.eu, us3.datadoghq.com, …</source>
            <translation>datadoghq.com、datadoghq.eu、us3.datadoghq.com 等</translation>
        </message>
        <message>
            <source>List monitors in alert or warning.</source>
            <translation>列出处于告警或警告状态的监控。</translation>
        </message>
        <message>
            <source>Mute a monitor (until a time, or until unmuted).</source>
            <translation>将监控静音（直到某个时间，或直到取消静音）。</translation>
        </message>
        <message>
            <source>Support</source>
            <translation>客服</translation>
        </message>
        <message>
            <source>Search tickets; reply or add internal notes.</source>
            <translation>搜索工单；回复或添加内部备注。</translation>
        </message>
        <message>
            <source>Zendesk address</source>
            <translation>Zendesk 地址</translation>
        </message>
        <message>
            <source>e.g. https://acme.zendesk.com</source>
            <translation>例如 https://acme.zendesk.com</translation>
        </message>
        <message>
            <source>Agent e-mail</source>
            <translation>客服人员邮箱</translation>
        </message>
        <message>
            <source>The address you sign in with.</source>
            <translation>你登录时使用的邮箱地址。</translation>
        </message>
        <message>
            <source>Admin Center → Apps and integrations → Zendesk API.</source>
            <translation>在 Zendesk 的“Admin Center”→“Apps and integrations”→“Zendesk API”中获取。</translation>
        </message>
        <message>
            <source>Search tickets (Zendesk search syntax).</source>
            <translation>搜索工单（使用 Zendesk 搜索语法）。</translation>
        </message>
        <message>
            <source>Add a comment to a ticket (internal unless public).</source>
            <translation>为工单添加评论（除非设为公开，否则为内部评论）。</translation>
        </message>
        <message>
            <source>Read and post in channels your bot is in.</source>
            <translation>读取并发送你的机器人所在频道中的消息。</translation>
        </message>
        <message>
            <source>Discord Developer Portal → your application → Bot → Reset Token; invite the bot to your server.</source>
            <translation>Discord 开发者门户（Developer Portal）→ 你的应用 →“Bot”→“Reset Token”；然后邀请机器人加入你的服务器。</translation>
        </message>
        <message>
            <source>Post a message in a channel.</source>
            <translation>在频道中发送消息。</translation>
        </message>
        <message>
            <source>Messages sent to your bot; messages from it.</source>
            <translation>发给你的机器人的消息；以机器人身份发送消息。</translation>
        </message>
        <message>
            <source>From @BotFather: /newbot, then copy the token.</source>
            <translation>向 @BotFather 发送 /newbot，然后复制令牌。</translation>
        </message>
        <message>
            <source>Read the messages recently sent to the bot.</source>
            <translation>读取最近发给机器人的消息。</translation>
        </message>
        <message>
            <source>Send a message to a chat.</source>
            <translation>向聊天发送消息。</translation>
        </message>
        <message>
            <source>Reads the tasks in a list; adds tasks and comments on them.</source>
            <translation>读取列表中的任务；添加任务并发表评论。</translation>
        </message>
        <message>
            <source>Personal API token</source>
            <translation>个人 API 令牌</translation>
        </message>
        <message>
            <source>ClickUp → your avatar → Settings → Apps → API Token (starts with pk_).</source>
            <translation>在 ClickUp 中点击你的头像 →“Settings”→“Apps”→“API Token”（以 pk_ 开头）。</translation>
        </message>
        <message>
            <source>List the tasks in a ClickUp list.</source>
            <translation>列出 ClickUp 列表中的任务。</translation>
        </message>
        <message>
            <source>Create a task in a list.</source>
            <translation>在列表中新建任务。</translation>
        </message>
        <message>
            <source>Reads your boards and their cards; adds cards and comments on them.</source>
            <translation>读取你的看板及其卡片；添加卡片并发表评论。</translation>
        </message>
        <message>
            <source>trello.com/power-ups/admin → your Power-Up → API key.</source>
            <translation>在 trello.com/power-ups/admin 中打开你的 Power-Up →“API key”。</translation>
        </message>
        <message>
            <source>Token</source>
            <translation>令牌</translation>
        </message>
        <message>
            <source>On the same page, follow the Token link and allow access.</source>
            <translation>在同一页面点击“Token”链接并允许访问。</translation>
        </message>
        <message>
            <source>List my open boards.</source>
            <translation>列出我打开的看板。</translation>
        </message>
        <message>
            <source>List the cards on a board.</source>
            <translation>列出看板上的卡片。</translation>
        </message>
        <message>
            <source>Comment on a card.</source>
            <translation>评论卡片。</translation>
        </message>
        <message>
            <source>Add a card to a list.</source>
            <translation>向列表添加卡片。</translation>
        </message>
        <message>
            <source>Reads your bases and their records; adds records to a table.</source>
            <translation>读取你的数据库（base）及其记录；向表中添加记录。</translation>
        </message>
        <message>
            <source>airtable.com/create/tokens (scopes data.records:read, data.records:write, schema.bases:read; user.email:read shows your address).</source>
            <translation>在 airtable.com/create/tokens 创建（权限范围 data.records:read、data.records:write、schema.bases:read；加上 user.email:read 可显示你的邮箱地址）。</translation>
        </message>
        <message>
            <source>List the bases the token can see.</source>
            <translation>列出该令牌可访问的数据库（base）。</translation>
        </message>
        <message>
            <source>List a table's records, optionally filtered.</source>
            <translation>列出表中的记录，可按条件筛选。</translation>
        </message>
        <message>
            <source>Add a record to a table.</source>
            <translation>向表中添加记录。</translation>
        </message>
        <message>
            <source>Reads your tasks (today and overdue, or any filter); adds and completes tasks.</source>
            <translation>读取你的任务（今天和已逾期的，或按任意筛选条件）；添加和完成任务。</translation>
        </message>
        <message>
            <source>Todoist → Settings → Integrations → Developer → API token.</source>
            <translation>在 Todoist 中打开“Settings”→“Integrations”→“Developer”→“API token”。</translation>
        </message>
        <message>
            <source>List tasks matching a Todoist filter.</source>
            <translation>列出符合 Todoist 筛选条件的任务。</translation>
        </message>
        <message>
            <source>Add a task to a project.</source>
            <translation>向项目添加任务。</translation>
        </message>
        <message>
            <source>Mark a task done.</source>
            <translation>将任务标记为完成。</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Finds files and reads documents; shares a file with someone.</source>
            <translation>查找文件并读取文档；与他人共享文件。</translation>
        </message>
        <message>
            <source>Find files by the words in them (newest first).</source>
            <translation>按文件中的文字查找文件（最新的在前）。</translation>
        </message>
        <message>
            <source>Read a document, sheet (as CSV) or text file.</source>
            <translation>读取文档、表格（以 CSV 格式）或文本文件。</translation>
        </message>
        <message>
            <source>Share a file with a person (they get an e-mail).</source>
            <translation>与某人共享文件（对方会收到邮件）。</translation>
        </message>
        <message>
            <source>Lists your folders and files; makes a share link to a file or folder.</source>
            <translation>列出你的文件夹和文件；为文件或文件夹创建共享链接。</translation>
        </message>
        <message>
            <source>Access token</source>
            <translation>访问令牌</translation>
        </message>
        <message>
            <source>dropbox.com/developers/apps → your app → Generate access token (scopes files.metadata.read, sharing.write).</source>
            <translation>在 dropbox.com/developers/apps 中打开你的应用 →“Generate access token”（权限范围 files.metadata.read、sharing.write）。</translation>
        </message>
        <message>
            <source>List a folder's files and folders.</source>
            <translation>列出文件夹中的文件和子文件夹。</translation>
        </message>
        <message>
            <source>Make a link anyone with it can open.</source>
            <translation>创建任何拿到链接的人都能打开的链接。</translation>
        </message>
        <message>
            <source>Finds files and folders; comments on a file.</source>
            <translation>查找文件和文件夹；评论文件。</translation>
        </message>
        <message>
            <source>Developer token</source>
            <translation>开发者令牌</translation>
        </message>
        <message>
            <source>Box Developer Console → your app → Configuration → Developer token (an OAuth access token works too).</source>
            <translation>在 Box 开发者控制台（Developer Console）中打开你的应用 →“Configuration”→“Developer token”（也可以使用 OAuth 访问令牌）。</translation>
        </message>
        <message>
            <source>Find files and folders by name or content.</source>
            <translation>按名称或内容查找文件和文件夹。</translation>
        </message>
        <message>
            <source>Comment on a file.</source>
            <translation>评论文件。</translation>
        </message>
        <message>
            <source>Finds files in your OneDrive or a SharePoint library, and SharePoint sites; makes a view link to a file.</source>
            <translation>在你的 OneDrive 或 SharePoint 文档库中查找文件，以及查找 SharePoint 网站；为文件创建查看链接。</translation>
        </message>
        <message>
            <source>A Microsoft Graph access token with Files.ReadWrite.All and Sites.Read.All (for example from Graph Explorer → Access token).</source>
            <translation>具有 Files.ReadWrite.All 和 Sites.Read.All 权限的 Microsoft Graph 访问令牌（例如在 Graph Explorer 的“Access token”中获取）。</translation>
        </message>
        <message>
            <source>Find files by name or content.</source>
            <translation>按名称或内容查找文件。</translation>
        </message>
        <message>
            <source>Find SharePoint sites (their ids lead to their libraries).</source>
            <translation>查找 SharePoint 网站（通过网站 ID 可找到其文档库）。</translation>
        </message>
        <message>
            <source>Make a view-only link to a file or folder.</source>
            <translation>为文件或文件夹创建只读查看链接。</translation>
        </message>
        <message>
            <source>Reads accounts, contacts, opportunities and any record (SOQL); changes fields on a record.</source>
            <translation>读取客户、联系人、商机及任意记录（SOQL）；修改记录的字段。</translation>
        </message>
        <message>
            <source>Salesforce address</source>
            <translation>Salesforce 地址</translation>
        </message>
        <message>
            <source>Your My Domain address, e.g. https://acme.my.salesforce.com</source>
            <translation>你的“My Domain”地址，例如 https://acme.my.salesforce.com</translation>
        </message>
        <message>
            <source>An OAuth access token for that address (for example `sf org display` → Access Token).</source>
            <translation>该地址的 OAuth 访问令牌（例如运行 `sf org display` 后查看“Access Token”）。</translation>
        </message>
        <message>
            <source>Run a SOQL SELECT query.</source>
            <translation>运行 SOQL SELECT 查询。</translation>
        </message>
        <message>
            <source>Change fields on a record.</source>
            <translation>修改记录的字段。</translation>
        </message>
        <message>
            <source>Reads recent conversations; replies to a customer or adds an internal note.</source>
            <translation>读取最近的对话；回复客户或添加内部备注。</translation>
        </message>
        <message>
            <source>Intercom → Settings → Integrations → Developer Hub → your app → Authentication.</source>
            <translation>在 Intercom 中打开“Settings”→“Integrations”→“Developer Hub”→ 你的应用 →“Authentication”。</translation>
        </message>
        <message>
            <source>List recent conversations.</source>
            <translation>列出最近的对话。</translation>
        </message>
        <message>
            <source>Reply in a conversation (the customer sees it unless it is a note).</source>
            <translation>在对话中回复（除非是备注，否则客户能看到）。</translation>
        </message>
        <message>
            <source>Reads people, companies and deals; adds a note to a record.</source>
            <translation>读取人员、公司和交易；为记录添加备注。</translation>
        </message>
        <message>
            <source>Attio → Workspace settings → Developers → New access token (records and notes: read-write).</source>
            <translation>在 Attio 中打开“Workspace settings”→“Developers”→“New access token”（记录和备注：读写）。</translation>
        </message>
        <message>
            <source>List records of an object.</source>
            <translation>列出某个对象的记录。</translation>
        </message>
        <message>
            <source>Add a note to a record.</source>
            <translation>为记录添加备注。</translation>
        </message>
        <message>
            <source>Finds leads and their contacts; adds a note to a lead.</source>
            <translation>查找线索及其联系人；为线索添加备注。</translation>
        </message>
        <message>
            <source>Close → Settings → Developer → API keys.</source>
            <translation>在 Close 中打开“Settings”→“Developer”→“API keys”。</translation>
        </message>
        <message>
            <source>Find leads (Close search syntax, or words).</source>
            <translation>查找线索（使用 Close 搜索语法或关键词）。</translation>
        </message>
        <message>
            <source>Add a note to a lead.</source>
            <translation>为线索添加备注。</translation>
        </message>
        <message>
            <source>An OAuth access token with the https://www.googleapis.com/auth/calendar scope (for example from the OAuth 2.0 Playground or `gcloud auth print-access-token`).</source>
            <translation>具有 https://www.googleapis.com/auth/calendar 权限范围的 OAuth 访问令牌（例如从 OAuth 2.0 Playground 获取，或运行 `gcloud auth print-access-token`）。</translation>
        </message>
        <message>
            <source>An OAuth access token with the https://www.googleapis.com/auth/gmail.modify scope (for example from the OAuth 2.0 Playground or `gcloud auth print-access-token`).</source>
            <translation>具有 https://www.googleapis.com/auth/gmail.modify 权限范围的 OAuth 访问令牌（例如从 OAuth 2.0 Playground 获取，或运行 `gcloud auth print-access-token`）。</translation>
        </message>
        <message>
            <source>A Microsoft Graph access token with Mail.Read, Mail.Send and Calendars.Read (for example from Graph Explorer).</source>
            <translation>具有 Mail.Read、Mail.Send 和 Calendars.Read 权限的 Microsoft Graph 访问令牌（例如从 Graph Explorer 获取）。</translation>
        </message>
        <message>
            <source>Reads the errors and issues of your organisation's projects; resolves or ignores an issue.</source>
            <translation>读取你的组织中各项目的错误和问题；解决或忽略问题。</translation>
        </message>
        <message>
            <source>Auth token</source>
            <translation>认证令牌</translation>
        </message>
        <message>
            <source>Sentry → Settings → Account → API → Personal tokens (scopes event:read, and event:write to resolve issues).</source>
            <translation>在 Sentry 中打开“Settings”→“Account”→“API”→“Personal tokens”（权限范围 event:read；解决问题还需要 event:write）。</translation>
        </message>
        <message>
            <source>Organization slug</source>
            <translation>组织标识（slug）</translation>
        </message>
        <message>
            <source>The name in your Sentry address: sentry.io/organizations/&lt;slug&gt;/.</source>
            <translation>你的 Sentry 地址中的名称：sentry.io/organizations/&lt;slug&gt;/。</translation>
        </message>
        <message>
            <source>Only for the EU region (https://de.sentry.io/api/0) or a self-hosted Sentry (https://sentry.example.com/api/0).</source>
            <translation>仅用于欧盟区域（https://de.sentry.io/api/0）或自建的 Sentry（https://sentry.example.com/api/0）。</translation>
        </message>
        <message>
            <source>List the organisation's issues (default: unresolved, last 14 days), with how often they happened.</source>
            <translation>列出组织的问题及其发生次数（默认：最近 14 天内未解决的）。</translation>
        </message>
        <message>
            <source>Resolve, ignore or reopen an issue.</source>
            <translation>解决、忽略或重新打开问题。</translation>
        </message>
        <message>
            <source>Reads a repository's pull requests; comments on a pull request.</source>
            <translation>读取仓库的拉取请求；评论拉取请求。</translation>
        </message>
        <message>
            <source>Bitbucket → Personal settings → Atlassian account settings → Security → API tokens (scopes read:pullrequest and write:pullrequest); or a workspace or repository access token.</source>
            <translation>在 Bitbucket 中打开“Personal settings”→“Atlassian account settings”→“Security”→“API tokens”（权限范围 read:pullrequest 和 write:pullrequest）；也可以使用工作区或仓库的访问令牌。</translation>
        </message>
        <message>
            <source>Atlassian e-mail</source>
            <translation>Atlassian 邮箱</translation>
        </message>
        <message>
            <source>For an API token: the e-mail you sign in with. Leave empty for an access token.</source>
            <translation>使用 API 令牌时：填写你登录用的邮箱。使用访问令牌时留空。</translation>
        </message>
        <message>
            <source>List a repository's pull requests.</source>
            <translation>列出仓库的拉取请求。</translation>
        </message>
        <message>
            <source>Comment on a pull request.</source>
            <translation>评论拉取请求。</translation>
        </message>
        <message>
            <source>Reads your recent deployments and their state; redeploys a project.</source>
            <translation>读取你最近的部署及其状态；重新部署项目。</translation>
        </message>
        <message>
            <source>Vercel → Account Settings → Tokens.</source>
            <translation>在 Vercel 中打开“Account Settings”→“Tokens”。</translation>
        </message>
        <message>
            <source>Team ID</source>
            <translation>团队 ID</translation>
        </message>
        <message>
            <source>Only for a team's projects: Team Settings → General → Team ID.</source>
            <translation>仅用于团队的项目：在“Team Settings”→“General”→“Team ID”中查看。</translation>
        </message>
        <message>
            <source>List recent deployments (all projects, or one).</source>
            <translation>列出最近的部署（所有项目或某一个项目）。</translation>
        </message>
        <message>
            <source>Build and deploy an existing deployment of a project again.</source>
            <translation>重新构建并部署项目的某个已有部署。</translation>
        </message>
        <message>
            <source>Analytics</source>
            <translation>数据分析</translation>
        </message>
        <message>
            <source>Answers questions about your product's events with HogQL (SQL) queries and lists feature flags; turns a feature flag on or off.</source>
            <translation>用 HogQL（SQL）查询回答关于产品事件的问题，并列出功能开关；打开或关闭功能开关。</translation>
        </message>
        <message>
            <source>Personal API key</source>
            <translation>个人 API 密钥</translation>
        </message>
        <message>
            <source>PostHog → Settings → Personal API keys (scopes query:read, feature_flag:read, and feature_flag:write to switch flags).</source>
            <translation>在 PostHog 中打开“Settings”→“Personal API keys”（权限范围 query:read、feature_flag:read；切换开关还需要 feature_flag:write）。</translation>
        </message>
        <message>
            <source>Project ID</source>
            <translation>项目 ID</translation>
        </message>
        <message>
            <source>The number in your PostHog address: /project/&lt;id&gt;/.</source>
            <translation>你的 PostHog 地址中的数字：/project/&lt;id&gt;/。</translation>
        </message>
        <message>
            <source>Only for the EU cloud (https://eu.posthog.com) or a self-hosted PostHog.</source>
            <translation>仅用于欧盟云（https://eu.posthog.com）或自建的 PostHog。</translation>
        </message>
        <message>
            <source>Run a HogQL (SQL) query over the project's events, persons and sessions, e.g. select event, count() from events where timestamp &gt; now() - interval 7 day group by event.</source>
            <translation>对项目的事件、用户和会话运行 HogQL（SQL）查询，例如 `select event, count() from events where timestamp &gt; now() - interval 7 day group by event`。</translation>
        </message>
        <message>
            <source>List the project's feature flags.</source>
            <translation>列出项目的功能开关。</translation>
        </message>
        <message>
            <source>Turn a feature flag on or off for everyone it targets.</source>
            <translation>为功能开关所针对的所有人打开或关闭它。</translation>
        </message>
        <message>
            <source>Reads how often an event happened, by day or broken down by a property; adds annotations (release notes) to your charts.</source>
            <translation>读取事件的发生次数（按天，或按某个属性细分）；为你的图表添加注释（发布说明）。</translation>
        </message>
        <message>
            <source>Service account username</source>
            <translation>服务账号用户名</translation>
        </message>
        <message>
            <source>Organization Settings → Service Accounts → Add (role Analyst, or Admin to annotate).</source>
            <translation>在“Organization Settings”→“Service Accounts”→“Add”中创建（角色选 Analyst；需要添加注释则选 Admin）。</translation>
        </message>
        <message>
            <source>Service account secret</source>
            <translation>服务账号密钥</translation>
        </message>
        <message>
            <source>Shown once, when the service account is made.</source>
            <translation>只在创建服务账号时显示一次。</translation>
        </message>
        <message>
            <source>Project Settings → Overview → Project ID.</source>
            <translation>在“Project Settings”→“Overview”→“Project ID”中查看。</translation>
        </message>
        <message>
            <source>Only for EU or India data residency: https://eu.mixpanel.com/api or https://in.mixpanel.com/api.</source>
            <translation>仅用于数据存放在欧盟或印度的情况：https://eu.mixpanel.com/api 或 https://in.mixpanel.com/api。</translation>
        </message>
        <message>
            <source>How many times an event happened per day (or hour, week, month), optionally broken down by a property.</source>
            <translation>事件每天（或每小时、每周、每月）发生的次数，可按某个属性细分。</translation>
        </message>
        <message>
            <source>Add an annotation to a project's charts (e.g. a release).</source>
            <translation>为项目的图表添加注释（例如一次发布）。</translation>
        </message>
        <message>
            <source>Reads how often an event happened (totals or unique users, per day); adds annotations (releases, campaigns) to your charts.</source>
            <translation>读取事件的发生次数（每天的总数或独立用户数）；为你的图表添加注释（发布、营销活动）。</translation>
        </message>
        <message>
            <source>Amplitude → Settings → Projects → your project → General.</source>
            <translation>在 Amplitude 中打开“Settings”→“Projects”→ 你的项目 →“General”。</translation>
        </message>
        <message>
            <source>Secret key</source>
            <translation>密钥（Secret Key）</translation>
        </message>
        <message>
            <source>On the same page, below the API key.</source>
            <translation>在同一页面，API 密钥的下方。</translation>
        </message>
        <message>
            <source>Only for EU data residency: https://analytics.eu.amplitude.com/api.</source>
            <translation>仅用于数据存放在欧盟的情况：https://analytics.eu.amplitude.com/api。</translation>
        </message>
        <message>
            <source>How many times an event happened (or how many users did it) per day.</source>
            <translation>事件每天发生的次数（或触发它的用户数）。</translation>
        </message>
        <message>
            <source>Add an annotation to a project's charts.</source>
            <translation>为项目的图表添加注释。</translation>
        </message>
        <message>
            <source>Finance</source>
            <translation>财务</translation>
        </message>
        <message>
            <source>Reads payments, customers and your balance. Read-only unless you allow changes: then it can also refund a payment (each refund asks you first).</source>
            <translation>读取付款、客户和你的余额。除非你允许更改，否则只读；允许后还可以退款（每次退款都会先征求你的同意）。</translation>
        </message>
        <message>
            <source>Secret or restricted key</source>
            <translation>密钥或受限密钥</translation>
        </message>
        <message>
            <source>Stripe → Developers → API keys. A restricted key with read access is enough while changes are off.</source>
            <translation>在 Stripe 中打开“Developers”→“API keys”。不允许更改时，有读取权限的受限密钥就够了。</translation>
        </message>
        <message>
            <source>Allow changes</source>
            <translation>允许更改</translation>
        </message>
        <message>
            <source>Type yes to let the agent refund payments (each one still asks you). Leave empty to keep Stripe read-only.</source>
            <translation>输入 yes 允许助手退款（每次仍会征求你的同意）。留空则 Stripe 保持只读。</translation>
        </message>
        <message>
            <source>List recent payments (all, or one customer's).</source>
            <translation>列出最近的付款（全部，或某个客户的）。</translation>
        </message>
        <message>
            <source>Find customers by e-mail or name.</source>
            <translation>按邮箱或名称查找客户。</translation>
        </message>
        <message>
            <source>The account's available and pending balance.</source>
            <translation>账户的可用余额和待入账余额。</translation>
        </message>
        <message>
            <source>Refund a payment, in full or in part (only when changes are allowed in Settings).</source>
            <translation>全额或部分退款（仅当在设置中允许更改时）。</translation>
        </message>
        <message>
            <source>Reads open invoices and anything else in your books (customers, bills, payments) through read-only queries; e-mails an invoice to its customer.</source>
            <translation>通过只读查询读取未结发票及账簿中的其他内容（客户、账单、付款）；将发票通过邮件发送给客户。</translation>
        </message>
        <message>
            <source>An OAuth access token (from the Intuit developer portal's OAuth 2.0 Playground, scope com.intuit.quickbooks.accounting); it lasts about an hour, so paste a fresh one when the connector asks to be reconnected.</source>
            <translation>OAuth 访问令牌（从 Intuit 开发者门户的 OAuth 2.0 Playground 获取，权限范围 com.intuit.quickbooks.accounting）；有效期约一小时，连接器要求重新连接时请粘贴新的令牌。</translation>
        </message>
        <message>
            <source>Company ID (realm)</source>
            <translation>公司 ID（realm）</translation>
        </message>
        <message>
            <source>QuickBooks → the gear → Account and settings → Billing &amp; subscription → Company ID.</source>
            <translation>在 QuickBooks 中点击齿轮图标 →“Account and settings”→“Billing &amp; subscription”→“Company ID”。</translation>
        </message>
        <message>
            <source>Only for a sandbox company: https://sandbox-quickbooks.api.intuit.com.</source>
            <translation>仅用于沙盒公司：https://sandbox-quickbooks.api.intuit.com。</translation>
        </message>
        <message>
            <source>List unpaid invoices (all, or one customer's).</source>
            <translation>列出未付发票（全部，或某个客户的）。</translation>
        </message>
        <message>
            <source>Read anything in the books with a QuickBooks query, e.g. select * from Customer where DisplayName like 'Acme%'.</source>
            <translation>用 QuickBooks 查询读取账簿中的任意内容，例如 `select * from Customer where DisplayName like 'Acme%'`。</translation>
        </message>
        <message>
            <source>E-mail an invoice (to its customer's address, or another).</source>
            <translation>通过邮件发送发票（发到客户的地址或其他地址）。</translation>
        </message>
        <message>
            <source>Reads your teams, their channels and chats; posts a message in a channel or chat.</source>
            <translation>读取你的团队、频道和聊天；在频道或聊天中发送消息。</translation>
        </message>
        <message>
            <source>An OAuth access token (from Graph Explorer, with ChannelMessage.Read.All, ChannelMessage.Send, Chat.ReadWrite and Team.ReadBasic.All); it lasts about an hour, so paste a fresh one when the connector asks to be reconnected.</source>
            <translation>OAuth 访问令牌（从 Graph Explorer 获取，需要 ChannelMessage.Read.All、ChannelMessage.Send、Chat.ReadWrite 和 Team.ReadBasic.All 权限）；有效期约一小时，连接器要求重新连接时请粘贴新的令牌。</translation>
        </message>
        <message>
            <source>List the teams you are in and their channels.</source>
            <translation>列出你所在的团队及其频道。</translation>
        </message>
        <message>
            <source>Read the recent messages of a channel (team and channel) or of a chat.</source>
            <translation>读取频道（指定团队和频道）或聊天的最近消息。</translation>
        </message>
        <message>
            <source>Post a message in a channel (team and channel).</source>
            <translation>在频道（指定团队和频道）中发送消息。</translation>
        </message>
        <message>
            <source>Send a message in a chat.</source>
            <translation>在聊天中发送消息。</translation>
        </message>
        <message>
            <source>Reads your approved message templates; sends a WhatsApp message from your business number (free text within 24 hours of the customer's last message, else a template).</source>
            <translation>读取你已获批准的消息模板；从你的企业号码发送 WhatsApp 消息（客户最后一条消息后的 24 小时内可发送任意文字，否则须使用模板）。</translation>
        </message>
        <message>
            <source>Meta Business Suite → Business settings → System users → Generate token (whatsapp_business_messaging, whatsapp_business_management).</source>
            <translation>在 Meta Business Suite 中打开“Business settings”→“System users”→“Generate token”（whatsapp_business_messaging、whatsapp_business_management）。</translation>
        </message>
        <message>
            <source>Phone number ID</source>
            <translation>电话号码 ID</translation>
        </message>
        <message>
            <source>WhatsApp Manager → Phone numbers, or the app's WhatsApp → API Setup page.</source>
            <translation>在 WhatsApp Manager 的“Phone numbers”中，或应用的“WhatsApp”→“API Setup”页面查看。</translation>
        </message>
        <message>
            <source>WhatsApp Business Account ID</source>
            <translation>WhatsApp 企业账户 ID</translation>
        </message>
        <message>
            <source>On the same API Setup page; needed to list templates.</source>
            <translation>在同一“API Setup”页面；列出模板时需要。</translation>
        </message>
        <message>
            <source>List the message templates of the business account.</source>
            <translation>列出企业账户的消息模板。</translation>
        </message>
        <message>
            <source>Send a WhatsApp message: text, or a template with its values.</source>
            <translation>发送 WhatsApp 消息：文字，或填好内容的模板。</translation>
        </message>
        <message>
            <source>Meetings</source>
            <translation>会议</translation>
        </message>
        <message>
            <source>Reads your upcoming meetings and their links; schedules a meeting.</source>
            <translation>读取你即将开始的会议及其链接；安排会议。</translation>
        </message>
        <message>
            <source>Account ID</source>
            <translation>账户 ID</translation>
        </message>
        <message>
            <source>Zoom App Marketplace → Develop → Build app → Server-to-Server OAuth (scopes meeting:read, meeting:write, user:read); its App credentials page shows these three values.</source>
            <translation>在 Zoom App Marketplace 中打开“Develop”→“Build app”→“Server-to-Server OAuth”（权限范围 meeting:read、meeting:write、user:read）；它的“App credentials”页面会显示这三个值。</translation>
        </message>
        <message>
            <source>Client ID</source>
            <translation>客户端 ID</translation>
        </message>
        <message>
            <source>On the same page.</source>
            <translation>在同一页面。</translation>
        </message>
        <message>
            <source>Client secret</source>
            <translation>客户端密钥</translation>
        </message>
        <message>
            <source>Only for Zoom for Government: https://api.zoomgov.com/v2.</source>
            <translation>仅用于 Zoom for Government：https://api.zoomgov.com/v2。</translation>
        </message>
        <message>
            <source>Sign-in address</source>
            <translation>登录地址</translation>
        </message>
        <message>
            <source>Only for Zoom for Government: https://zoomgov.com/oauth/token.</source>
            <translation>仅用于 Zoom for Government：https://zoomgov.com/oauth/token。</translation>
        </message>
        <message>
            <source>List your meetings (upcoming by default).</source>
            <translation>列出你的会议（默认为即将开始的）。</translation>
        </message>
        <message>
            <source>Schedule a meeting and get its join link.</source>
            <translation>安排会议并获取加入链接。</translation>
        </message>
        <message>
            <source>Signing</source>
            <translation>电子签名</translation>
        </message>
        <message>
            <source>Reads your envelopes and whether they are signed, and your templates; sends a template to someone to sign.</source>
            <translation>读取你的信封及其签署状态，以及你的模板；将模板发给某人签署。</translation>
        </message>
        <message>
            <source>An OAuth access token (DocuSign → Apps and Keys, or the API Explorer, scope signature); it lasts about an hour, so paste a fresh one when the connector asks to be reconnected.</source>
            <translation>OAuth 访问令牌（在 DocuSign 的“Apps and Keys”或 API Explorer 中获取，权限范围 signature）；有效期约一小时，连接器要求重新连接时请粘贴新的令牌。</translation>
        </message>
        <message>
            <source>API account ID</source>
            <translation>API 账户 ID</translation>
        </message>
        <message>
            <source>DocuSign → Settings → Apps and Keys → API Account ID.</source>
            <translation>在 DocuSign 中打开“Settings”→“Apps and Keys”→“API Account ID”。</translation>
        </message>
        <message>
            <source>Your account's base URI, on the same page (e.g. https://na3.docusign.net; https://demo.docusign.net for a developer account).</source>
            <translation>你账户的基础 URI，在同一页面（例如 https://na3.docusign.net；开发者账户为 https://demo.docusign.net）。</translation>
        </message>
        <message>
            <source>List envelopes sent in the last 30 days (or since a date) and their state.</source>
            <translation>列出最近 30 天（或某个日期以来）发出的信封及其状态。</translation>
        </message>
        <message>
            <source>List the account's templates and their roles.</source>
            <translation>列出账户的模板及其角色。</translation>
        </message>
        <message>
            <source>Send a template to one person to sign.</source>
            <translation>将模板发给一个人签署。</translation>
        </message>
        <message>
            <source>Design</source>
            <translation>设计</translation>
        </message>
        <message>
            <source>Reads a design file's pages and frames and its comments; comments on a file or replies to a comment.</source>
            <translation>读取设计文件的页面、画框和评论；评论文件或回复评论。</translation>
        </message>
        <message>
            <source>Figma → Settings → Security → Personal access tokens (scopes file_content:read, file_comments:read and :write).</source>
            <translation>在 Figma 中打开“Settings”→“Security”→“Personal access tokens”（权限范围 file_content:read、file_comments:read 和 :write）。</translation>
        </message>
        <message>
            <source>Outline a design file: its pages and their frames.</source>
            <translation>列出设计文件的结构：页面及其画框。</translation>
        </message>
        <message>
            <source>Read a file's comments.</source>
            <translation>读取文件的评论。</translation>
        </message>
        <message>
            <source>Comment on a file, or reply to a comment.</source>
            <translation>评论文件，或回复评论。</translation>
        </message>
        <message>
            <source>Web</source>
            <translation>网页</translation>
        </message>
        <message>
            <source>A Chromium the agent drives for sites with no API: opens pages, reads them, clicks and types; asks before each new site and before sending a form.</source>
            <translation>由助手操控的 Chromium 浏览器，用于没有 API 的网站：打开并阅读网页、点击和输入；访问每个新网站和提交表单前都会先征求你的同意。</translation>
        </message>
        <message>
            <source>Chromium program</source>
            <translation>Chromium 程序</translation>
        </message>
        <message>
            <source>Leave empty to use the Chromium installed on this computer (/usr/bin/chromium on Debian and Ubuntu).</source>
            <translation>留空则使用这台电脑上已安装的 Chromium（在 Debian 和 Ubuntu 上为 /usr/bin/chromium）。</translation>
        </message>
        <message>
            <source>Open a web page in the session's browser (asks the user for each new domain).</source>
            <translation>在会话的浏览器中打开网页（每个新域名都会询问用户）。</translation>
        </message>
        <message>
            <source>The current page's text. wait_for: a text to wait for first (pages that load content late).</source>
            <translation>当前页面的文字。wait_for：先等待出现的文字（用于内容加载较慢的页面）。</translation>
        </message>
        <message>
            <source>The current page as an accessibility tree, each element with a ref for browser_click, browser_type and browser_submit.</source>
            <translation>以无障碍树的形式给出当前页面，每个元素带有可供 browser_click、browser_type 和 browser_submit 使用的 ref。</translation>
        </message>
        <message>
            <source>Click an element (a link, a button, a tab). Sending a form is browser_submit.</source>
            <translation>点击元素（链接、按钮、标签页）。提交表单请用 browser_submit。</translation>
        </message>
        <message>
            <source>Fill a text field (replaces its text; does not submit).</source>
            <translation>填写文本框（替换原有文字；不提交）。</translation>
        </message>
        <message>
            <source>Submit a form: press its button (or Enter in its field). Asks the user, naming the domain the form sends to.</source>
            <translation>提交表单：按下表单按钮（或在输入框中按 Enter）。会先询问用户，并说明表单将发送到哪个域名。</translation>
        </message>
        <message>
            <source>A picture of the current page (saved in outputs/).</source>
            <translation>当前页面的截图（保存在 outputs/ 中）。</translation>
        </message>
        <message>
            <source>Read a channel's recent messages</source>
            <translation>读取频道的最近消息</translation>
        </message>
        <message>
            <source>Read a thread's messages</source>
            <translation>读取话题中的消息</translation>
        </message>
        <message>
            <source>Search messages</source>
            <translation>搜索消息</translation>
        </message>
        <message>
            <source>Post a message to a channel or a thread</source>
            <translation>向频道或话题发送消息</translation>
        </message>
        <message>
            <source>Upload a file to a channel or thread</source>
            <translation>向频道或话题上传文件</translation>
        </message>
        <message>
            <source>Add an emoji reaction to a message</source>
            <translation>为消息添加表情回应</translation>
        </message>
        <message>
            <source>List a repository's issues and pull requests</source>
            <translation>列出仓库的议题和拉取请求</translation>
        </message>
        <message>
            <source>Comment on an issue or pull request</source>
            <translation>评论议题或拉取请求</translation>
        </message>
        <message>
            <source>List a project's issues</source>
            <translation>列出项目的议题</translation>
        </message>
        <message>
            <source>Comment on an issue</source>
            <translation>评论议题</translation>
        </message>
        <message>
            <source>List events between two times</source>
            <translation>列出两个时间之间的日程</translation>
        </message>
        <message>
            <source>Create an event</source>
            <translation>新建日程</translation>
        </message>
        <message>
            <source>Search mail with Gmail's search syntax</source>
            <translation>使用 Gmail 搜索语法搜索邮件</translation>
        </message>
        <message>
            <source>Send an e-mail</source>
            <translation>发送电子邮件</translation>
        </message>
        <message>
            <source>List recent mail, optionally matching a search</source>
            <translation>列出最近的邮件，可按搜索条件筛选</translation>
        </message>
        <message>
            <source>List calendar events between two times</source>
            <translation>列出两个时间之间的日历日程</translation>
        </message>
        <message>
            <source>Search issues with JQL</source>
            <translation>使用 JQL 搜索议题</translation>
        </message>
        <message>
            <source>Search pages by text or CQL</source>
            <translation>按文本或 CQL 搜索页面</translation>
        </message>
        <message>
            <source>Create a page in a space</source>
            <translation>在空间中新建页面</translation>
        </message>
        <message>
            <source>List the open issues assigned to me</source>
            <translation>列出分配给我的未关闭议题</translation>
        </message>
        <message>
            <source>Search pages and databases by title</source>
            <translation>按标题搜索页面和数据库</translation>
        </message>
        <message>
            <source>Append paragraphs to a page</source>
            <translation>在页面末尾添加段落</translation>
        </message>
        <message>
            <source>Search a mail folder</source>
            <translation>搜索邮件文件夹</translation>
        </message>
        <message>
            <source>List my incomplete tasks</source>
            <translation>列出我未完成的任务</translation>
        </message>
        <message>
            <source>Comment on a task</source>
            <translation>评论任务</translation>
        </message>
        <message>
            <source>List a board's items</source>
            <translation>列出看板的条目</translation>
        </message>
        <message>
            <source>Post an update on an item</source>
            <translation>在条目上发布更新</translation>
        </message>
        <message>
            <source>Search contacts by name, e-mail or company</source>
            <translation>按姓名、邮箱或公司搜索联系人</translation>
        </message>
        <message>
            <source>Add a note to a contact</source>
            <translation>为联系人添加备注</translation>
        </message>
        <message>
            <source>List triggered and acknowledged incidents</source>
            <translation>列出已触发和已确认的事件</translation>
        </message>
        <message>
            <source>Acknowledge an incident</source>
            <translation>确认事件</translation>
        </message>
        <message>
            <source>List monitors in alert or warning</source>
            <translation>列出处于告警或警告状态的监控</translation>
        </message>
        <message>
            <source>Mute a monitor</source>
            <translation>将监控静音</translation>
        </message>
        <message>
            <source>Search tickets</source>
            <translation>搜索工单</translation>
        </message>
        <message>
            <source>Add a comment to a ticket</source>
            <translation>为工单添加评论</translation>
        </message>
        <message>
            <source>Post a message in a channel</source>
            <translation>在频道中发送消息</translation>
        </message>
        <message>
            <source>Read the messages recently sent to the bot</source>
            <translation>读取最近发给机器人的消息</translation>
        </message>
        <message>
            <source>Send a message to a chat</source>
            <translation>向聊天发送消息</translation>
        </message>
        <message>
            <source>List the tasks in a ClickUp list</source>
            <translation>列出 ClickUp 列表中的任务</translation>
        </message>
        <message>
            <source>Create a task in a list</source>
            <translation>在列表中新建任务</translation>
        </message>
        <message>
            <source>List my open boards</source>
            <translation>列出我打开的看板</translation>
        </message>
        <message>
            <source>List the cards on a board</source>
            <translation>列出看板上的卡片</translation>
        </message>
        <message>
            <source>Comment on a card</source>
            <translation>评论卡片</translation>
        </message>
        <message>
            <source>Add a card to a list</source>
            <translation>向列表添加卡片</translation>
        </message>
        <message>
            <source>List the bases the token can see</source>
            <translation>列出该令牌可访问的数据库（base）</translation>
        </message>
        <message>
            <source>List a table's records, optionally filtered</source>
            <translation>列出表中的记录，可按条件筛选</translation>
        </message>
        <message>
            <source>Add a record to a table</source>
            <translation>向表中添加记录</translation>
        </message>
        <message>
            <source>List tasks matching a Todoist filter</source>
            <translation>列出符合 Todoist 筛选条件的任务</translation>
        </message>
        <message>
            <source>Add a task to a project</source>
            <translation>向项目添加任务</translation>
        </message>
        <message>
            <source>Mark a task done</source>
            <translation>将任务标记为完成</translation>
        </message>
        <message>
            <source>Find files by the words in them</source>
            <translation>按文件中的文字查找文件</translation>
        </message>
        <message>
            <source>Read a document, sheet or text file</source>
            <translation>读取文档、表格或文本文件</translation>
        </message>
        <message>
            <source>Share a file with a person</source>
            <translation>与某人共享文件</translation>
        </message>
        <message>
            <source>List a folder's files and folders</source>
            <translation>列出文件夹中的文件和子文件夹</translation>
        </message>
        <message>
            <source>Make a link anyone with it can open</source>
            <translation>创建任何拿到链接的人都能打开的链接</translation>
        </message>
        <message>
            <source>Find files and folders by name or content</source>
            <translation>按名称或内容查找文件和文件夹</translation>
        </message>
        <message>
            <source>Comment on a file</source>
            <translation>评论文件</translation>
        </message>
        <message>
            <source>Find files by name or content</source>
            <translation>按名称或内容查找文件</translation>
        </message>
        <message>
            <source>Find SharePoint sites</source>
            <translation>查找 SharePoint 网站</translation>
        </message>
        <message>
            <source>Make a view-only link to a file or folder</source>
            <translation>为文件或文件夹创建只读查看链接</translation>
        </message>
        <message>
            <source>Run a SOQL SELECT query</source>
            <translation>运行 SOQL SELECT 查询</translation>
        </message>
        <message>
            <source>Change fields on a record</source>
            <translation>修改记录的字段</translation>
        </message>
        <message>
            <source>List recent conversations</source>
            <translation>列出最近的对话</translation>
        </message>
        <message>
            <source>Reply in a conversation</source>
            <translation>在对话中回复</translation>
        </message>
        <message>
            <source>List records of an object</source>
            <translation>列出某个对象的记录</translation>
        </message>
        <message>
            <source>Add a note to a record</source>
            <translation>为记录添加备注</translation>
        </message>
        <message>
            <source>Find leads</source>
            <translation>查找线索</translation>
        </message>
        <message>
            <source>Add a note to a lead</source>
            <translation>为线索添加备注</translation>
        </message>
        <message>
            <source>List the organisation's issues, with how often they happened</source>
            <translation>列出组织的问题及其发生次数</translation>
        </message>
        <message>
            <source>Resolve, ignore or reopen an issue</source>
            <translation>解决、忽略或重新打开问题</translation>
        </message>
        <message>
            <source>List a repository's pull requests</source>
            <translation>列出仓库的拉取请求</translation>
        </message>
        <message>
            <source>Comment on a pull request</source>
            <translation>评论拉取请求</translation>
        </message>
        <message>
            <source>List recent deployments</source>
            <translation>列出最近的部署</translation>
        </message>
        <message>
            <source>Build and deploy an existing deployment of a project again</source>
            <translation>重新构建并部署项目的某个已有部署</translation>
        </message>
        <message>
            <source>Run a HogQL query over the project's events, persons and sessions, e.g</source>
            <translation>对项目的事件、用户和会话运行 HogQL 查询</translation>
        </message>
        <message>
            <source>List the project's feature flags</source>
            <translation>列出项目的功能开关</translation>
        </message>
        <message>
            <source>Turn a feature flag on or off for everyone it targets</source>
            <translation>为功能开关所针对的所有人打开或关闭它</translation>
        </message>
        <message>
            <source>How many times an event happened per day, optionally broken down by a property</source>
            <translation>事件每天发生的次数，可按某个属性细分</translation>
        </message>
        <message>
            <source>Add an annotation to a project's charts (e.g</source>
            <translation>为项目的图表添加注释</translation>
        </message>
        <message>
            <source>How many times an event happened per day</source>
            <translation>事件每天发生的次数</translation>
        </message>
        <message>
            <source>Add an annotation to a project's charts</source>
            <translation>为项目的图表添加注释</translation>
        </message>
        <message>
            <source>List recent payments</source>
            <translation>列出最近的付款</translation>
        </message>
        <message>
            <source>Find customers by e-mail or name</source>
            <translation>按邮箱或名称查找客户</translation>
        </message>
        <message>
            <source>The account's available and pending balance</source>
            <translation>账户的可用余额和待入账余额</translation>
        </message>
        <message>
            <source>Refund a payment, in full or in part</source>
            <translation>全额或部分退款</translation>
        </message>
        <message>
            <source>List unpaid invoices</source>
            <translation>列出未付发票</translation>
        </message>
        <message>
            <source>Read anything in the books with a QuickBooks query, e.g</source>
            <translation>用 QuickBooks 查询读取账簿中的任意内容</translation>
        </message>
        <message>
            <source>E-mail an invoice</source>
            <translation>通过邮件发送发票</translation>
        </message>
        <message>
            <source>List the teams you are in and their channels</source>
            <translation>列出你所在的团队及其频道</translation>
        </message>
        <message>
            <source>Read the recent messages of a channel or of a chat</source>
            <translation>读取频道或聊天的最近消息</translation>
        </message>
        <message>
            <source>Send a message in a chat</source>
            <translation>在聊天中发送消息</translation>
        </message>
        <message>
            <source>List the message templates of the business account</source>
            <translation>列出企业账户的消息模板</translation>
        </message>
        <message>
            <source>Send a WhatsApp message: text, or a template with its values</source>
            <translation>发送 WhatsApp 消息：文字，或填好内容的模板</translation>
        </message>
        <message>
            <source>List your meetings</source>
            <translation>列出你的会议</translation>
        </message>
        <message>
            <source>Schedule a meeting and get its join link</source>
            <translation>安排会议并获取加入链接</translation>
        </message>
        <message>
            <source>List envelopes sent in the last 30 days and their state</source>
            <translation>列出最近 30 天发出的信封及其状态</translation>
        </message>
        <message>
            <source>List the account's templates and their roles</source>
            <translation>列出账户的模板及其角色</translation>
        </message>
        <message>
            <source>Send a template to one person to sign</source>
            <translation>将模板发给一个人签署</translation>
        </message>
        <message>
            <source>Outline a design file: its pages and their frames</source>
            <translation>列出设计文件的结构：页面及其画框</translation>
        </message>
        <message>
            <source>Read a file's comments</source>
            <translation>读取文件的评论</translation>
        </message>
        <message>
            <source>Comment on a file, or reply to a comment</source>
            <translation>评论文件，或回复评论</translation>
        </message>
        <message>
            <source>Open a web page in the session's browser</source>
            <translation>在会话的浏览器中打开网页</translation>
        </message>
        <message>
            <source>The current page's text</source>
            <translation>当前页面的文字</translation>
        </message>
        <message>
            <source>The current page as an accessibility tree, each element with a ref for browser_click, browser_type and browser_submit</source>
            <translation>以无障碍树的形式给出当前页面，每个元素带有可供 browser_click、browser_type 和 browser_submit 使用的 ref</translation>
        </message>
        <message>
            <source>Click an element</source>
            <translation>点击元素</translation>
        </message>
        <message>
            <source>Fill a text field</source>
            <translation>填写文本框</translation>
        </message>
        <message>
            <source>Submit a form: press its button</source>
            <translation>提交表单：按下表单按钮</translation>
        </message>
        <message>
            <source>A picture of the current page</source>
            <translation>当前页面的截图</translation>
        </message>
        <message>
            <source>Run a HogQL query over the project's events, persons and sessions, e.g. select event, count from events where timestamp &gt; now - interval 7 day group by event</source>
            <translation>对项目的事件、用户和会话运行 HogQL 查询，例如 `select event, count from events where timestamp &gt; now - interval 7 day group by event`</translation>
        </message>
        <message>
            <source>Read anything in the books with a QuickBooks query, e.g. select * from Customer where DisplayName like 'Acme%'</source>
            <translation>用 QuickBooks 查询读取账簿中的任意内容，例如 `select * from Customer where DisplayName like 'Acme%'`</translation>
        </message>
        <message>
            <source>An OAuth access token with the https://www.googleapis.com/auth/drive scope (for example from the OAuth 2.0 Playground or `gcloud auth print-access-token`).</source>
            <translation>具有 https://www.googleapis.com/auth/drive 权限范围的 OAuth 访问令牌（例如从 OAuth 2.0 Playground 获取，或运行 `gcloud auth print-access-token`）。</translation>
        </message>
        <message>
            <source>On: the agent may also refund payments (each refund still asks you). Off: Stripe stays read-only.</source>
            <translation>开启：助手还可以退款（每次退款仍会征求你的同意）。关闭：Stripe 保持只读。</translation>
        </message>
        <message>
            <source>Your own Desktop app client from developer.intuit.com → your app → Keys and credentials (add http://127.0.0.1 as a redirect URI); then use Sign in.</source>
            <translation>你自己的桌面应用客户端，在 developer.intuit.com 中打开你的应用 →“Keys and credentials”（将 http://127.0.0.1 添加为重定向 URI）；然后点击“登录”。</translation>
        </message>
        <message>
            <source>Filled in by Sign in with Intuit.</source>
            <translation>通过 Intuit 登录后自动填写。</translation>
        </message>
        <message>
            <source>Your own Desktop app client from DocuSign → Settings → Apps and Keys (its integration key; add http://127.0.0.1 as a redirect URI); then use Sign in.</source>
            <translation>你自己的桌面应用客户端，在 DocuSign 中打开“Settings”→“Apps and Keys”（使用其集成密钥；将 http://127.0.0.1 添加为重定向 URI）；然后点击“登录”。</translation>
        </message>
        <message>
            <source>Filled in by Sign in with DocuSign.</source>
            <translation>通过 DocuSign 登录后自动填写。</translation>
        </message>
        <message>
            <source>{service} could not be reached ({problem}).</source>
            <translation>无法连接 {service}（{problem}）。</translation>
        </message>
        <message>
            <source>{service} is rate limiting requests; it asks to wait {seconds} s. Try again later.</source>
            <translation>{service} 正在限制请求频率，要求等待 {seconds} 秒。请稍后再试。</translation>
        </message>
        <message>
            <source>{service} had a problem on its side (HTTP {code}). Try again later.</source>
            <translation>{service} 那边出了问题（HTTP {code}）。请稍后再试。</translation>
        </message>
        <message>
            <source>{service} refused the request (HTTP {code}): {detail}</source>
            <translation>{service} 拒绝了请求（HTTP {code}）：{detail}</translation>
        </message>
        <message>
            <source>{service} refused the request (HTTP {code}).</source>
            <translation>{service} 拒绝了请求（HTTP {code}）。</translation>
        </message>
        <message>
            <source>{service} refused the credentials (expired or revoked). Reconnect {service} in Settings → Connectors.</source>
            <translation>{service} 拒绝了凭据（已过期或已被撤销）。请在“设置 → 连接器”中重新连接 {service}。</translation>
        </message>
        <message>
            <source>{value} is not a valid id.</source>
            <translation>{value} 不是有效的 ID。</translation>
        </message>
        <message>
            <source>{folder} is not a plain folder: downloads and screenshots go only into the session's own output folder.</source>
            <translation>{folder} 不是普通文件夹：下载的文件和截图只会保存到会话自己的输出文件夹中。</translation>
        </message>
        <message>
            <source>The browser connector is not part of this packaged build (Playwright, which drives Chromium, is too large to bundle): run OpenWorker from a source install (scripts/dev install) to use it. ({problem})</source>
            <translation>此打包版本不含浏览器连接器（驱动 Chromium 的 Playwright 太大，无法打包）：请从源码安装运行 OpenWorker（`scripts/dev install`）后使用。（{problem}）</translation>
        </message>
        <message>
            <source>The browser could not start: Playwright, which drives Chromium, is missing or broken. Reinstall OpenWorker's packages (scripts/dev install). ({problem})</source>
            <translation>浏览器无法启动：驱动 Chromium 的 Playwright 缺失或已损坏。请重新安装 OpenWorker 的软件包（`scripts/dev install`）。（{problem}）</translation>
        </message>
        <message>
            <source>Chromium did not start ({executable}): {problem}. Install Chromium: on Debian or Ubuntu `sudo apt-get install chromium` (scripts/dev install does it), or give the path to a Chromium or Chrome in Settings → Connectors → Browser.</source>
            <translation>Chromium 未能启动（{executable}）：{problem}。请安装 Chromium：在 Debian 或 Ubuntu 上运行 `sudo apt-get install chromium`（`scripts/dev install` 会安装它），或在“设置 → 连接器 → 浏览器”中填写 Chromium 或 Chrome 的路径。</translation>
        </message>
        <message>
            <source>No Chromium found ({where}). Install Chromium: on Debian or Ubuntu `sudo apt-get install chromium` (scripts/dev install does it), or give the path to a Chromium or Chrome in Settings → Connectors → Browser.</source>
            <translation>未找到 Chromium（{where}）。请安装 Chromium：在 Debian 或 Ubuntu 上运行 `sudo apt-get install chromium`（`scripts/dev install` 会安装它），或在“设置 → 连接器 → 浏览器”中填写 Chromium 或 Chrome 的路径。</translation>
        </message>
        <message>
            <source>The browser connector is not part of this packaged build (Playwright, which drives Chromium, is too large to bundle): run OpenWorker from a source install (scripts/dev install) to use it.</source>
            <translation>此打包版本不含浏览器连接器（驱动 Chromium 的 Playwright 太大，无法打包）：请从源码安装运行 OpenWorker（`scripts/dev install`）后使用。</translation>
        </message>
        <message>
            <source>The browser could not start: Playwright, which drives Chromium, is missing or broken. Reinstall OpenWorker's packages (scripts/dev install).</source>
            <translation>浏览器无法启动：驱动 Chromium 的 Playwright 缺失或已损坏。请重新安装 OpenWorker 的软件包（`scripts/dev install`）。</translation>
        </message>
        <message>
            <source>{executable} did not run ({problem}). Install Chromium: on Debian or Ubuntu `sudo apt-get install chromium` (scripts/dev install does it), or give the path to a Chromium or Chrome in Settings → Connectors → Browser.</source>
            <translation>{executable} 无法运行（{problem}）。请安装 Chromium：在 Debian 或 Ubuntu 上运行 `sudo apt-get install chromium`（`scripts/dev install` 会安装它），或在“设置 → 连接器 → 浏览器”中填写 Chromium 或 Chrome 的路径。</translation>
        </message>
        <message>
            <source>{executable} did not run. Install Chromium: on Debian or Ubuntu `sudo apt-get install chromium` (scripts/dev install does it), or give the path to a Chromium or Chrome in Settings → Connectors → Browser.</source>
            <translation>{executable} 无法运行。请安装 Chromium：在 Debian 或 Ubuntu 上运行 `sudo apt-get install chromium`（`scripts/dev install` 会安装它），或在“设置 → 连接器 → 浏览器”中填写 Chromium 或 Chrome 的路径。</translation>
        </message>
        <message>
            <source>{what} failed: {problem}</source>
            <translation>{what} 失败：{problem}</translation>
        </message>
        <message>
            <source>Only http and https addresses can be opened, not {url}.</source>
            <translation>只能打开 http 和 https 地址，不能打开 {url}。</translation>
        </message>
        <message>
            <source>The address is on {host}, not on {domain}: domain must be the address's own domain.</source>
            <translation>该地址位于 {host}，而不是 {domain}：domain 必须是该地址自己的域名。</translation>
        </message>
        <message>
            <source>{failed}
{notes}</source>
            <translation>{failed}
{notes}</translation>
        </message>
        <message>
            <source>This form sends to {host}, not to {domain}: call browser_submit with domain={quoted}.</source>
            <translation>此表单提交到 {host}，而不是 {domain}：请用 domain={quoted} 调用 browser_submit。</translation>
        </message>
        <message>
            <source>The {service} address must start with https://.</source>
            <translation>{service} 地址必须以 https:// 开头。</translation>
        </message>
        <message>
            <source>Give the new record's fields as an object, e.g. {"Name": "Ana"}.</source>
            <translation>请以对象形式提供新记录的字段，例如 {"Name": "Ana"}。</translation>
        </message>
        <message>
            <source>The role is reader, commenter or writer.</source>
            <translation>角色只能是 reader、commenter 或 writer。</translation>
        </message>
        <message>
            <source>The scope is organization or anonymous.</source>
            <translation>范围只能是 organization 或 anonymous。</translation>
        </message>
        <message>
            <source>Only SELECT queries are read here.</source>
            <translation>这里只执行 SELECT 查询。</translation>
        </message>
        <message>
            <source>Give the fields to change as an object, e.g. {"StageName": "Closed Won"}.</source>
            <translation>请以对象形式提供要更改的字段，例如 {"StageName": "Closed Won"}。</translation>
        </message>
        <message>
            <source>The status is resolved, unresolved or ignored.</source>
            <translation>状态只能是 resolved、unresolved 或 ignored。</translation>
        </message>
        <message>
            <source>Name the repository as workspace/repository.</source>
            <translation>请以 workspace/repository 的形式指定仓库。</translation>
        </message>
        <message>
            <source>Stripe is connected read-only: turn on “Allow changes” in Settings → Connectors → Stripe first.</source>
            <translation>Stripe 以只读方式连接：请先在“设置 → 连接器 → Stripe”中开启“允许更改”。</translation>
        </message>
        <message>
            <source>QuickBooks queries read only: start with SELECT.</source>
            <translation>QuickBooks 查询只能读取：请以 SELECT 开头。</translation>
        </message>
        <message>
            <source>Name a chat, or a team and one of its channels.</source>
            <translation>请指定一个聊天，或一个团队及其中的一个频道。</translation>
        </message>
        <message>
            <source>Add the WhatsApp Business Account ID in Settings → Connectors → WhatsApp to list templates.</source>
            <translation>要列出模板，请先在“设置 → 连接器 → WhatsApp”中添加 WhatsApp Business 账户 ID。</translation>
        </message>
        <message>
            <source>Give the phone number with its country code, e.g. +4915112345678.</source>
            <translation>请提供带国家代码的电话号码，例如 +4915112345678。</translation>
        </message>
        <message>
            <source>Give the text of the message, or a template.</source>
            <translation>请提供消息的文字，或一个模板。</translation>
        </message>
        <message>
            <source>Give a Figma file's key or its address.</source>
            <translation>请提供 Figma 文件的 key 或其地址。</translation>
        </message>
        <message>
            <source>{key} must be a number.</source>
            <translation>{key} 必须是数字。</translation>
        </message>
        <message>
            <source>The mail server refused the login: {detail}. Check the user name and (app) password.</source>
            <translation>邮件服务器拒绝了登录：{detail}。请检查用户名和（应用专用）密码。</translation>
        </message>
        <message>
            <source>Cannot reach {host}:{port} ({problem}).</source>
            <translation>无法连接 {host}:{port}（{problem}）。</translation>
        </message>
        <message>
            <source>No folder {folder}.</source>
            <translation>没有文件夹 {folder}。</translation>
        </message>
        <message>
            <source>The mail server refused the login.</source>
            <translation>邮件服务器拒绝了登录。</translation>
        </message>
        <message>
            <source>The mail server refused the message: {detail}.</source>
            <translation>邮件服务器拒绝了这封邮件：{detail}。</translation>
        </message>
        <message>
            <source>{service} refused the sign-in ({detail}: expired or revoked). Sign in again in Settings → Connectors.</source>
            <translation>{service} 拒绝了登录（{detail}：已过期或已被撤销）。请在“设置 → 连接器”中重新登录。</translation>
        </message>
        <message>
            <source>{service}'s sign-in service had a problem (HTTP {code}). Try again later.</source>
            <translation>{service} 的登录服务出了问题（HTTP {code}）。请稍后再试。</translation>
        </message>
        <message>
            <source>Sign in with {service}, or paste an access token, in Settings → Connectors.</source>
            <translation>请在“设置 → 连接器”中用 {service} 登录，或粘贴访问令牌。</translation>
        </message>
        <message>
            <source>{service} could not be reached.</source>
            <translation>无法连接 {service}。</translation>
        </message>
        <message>
            <source>Signing in with {service} needs your OAuth client id (a Desktop app client).</source>
            <translation>用 {service} 登录需要你的 OAuth 客户端 ID（桌面应用客户端）。</translation>
        </message>
        <message>
            <source>The {service} sign-in was not finished in time. Start it again.</source>
            <translation>{service} 登录未在规定时间内完成。请重新开始。</translation>
        </message>
        <message>
            <source>{service} gave no refresh token; sign in again (and allow offline access).</source>
            <translation>{service} 没有给出刷新令牌；请重新登录（并允许离线访问）。</translation>
        </message>
        <message>
            <source>No connector named {name}. Known: {known}.</source>
            <translation>没有名为 {name} 的连接器。已知的有：{known}。</translation>
        </message>
        <message>
            <source>{service} has no field {key}.</source>
            <translation>{service} 没有字段 {key}。</translation>
        </message>
        <message>
            <source>{service}: {field} is yes or no, not {value}.</source>
            <translation>{service}：{field} 只能是 yes 或 no，不能是 {value}。</translation>
        </message>
        <message>
            <source>{service} needs: {fields}.</source>
            <translation>{service} 还需要：{fields}。</translation>
        </message>
        <message>
            <source>{service} is not connected.</source>
            <translation>{service} 未连接。</translation>
        </message>
        <message>
            <source>The connector has no {key}: connect it again.</source>
            <translation>该连接器缺少 {key}：请重新连接。</translation>
        </message>
        <message>
            <source>The {service} site must be an https:// address.</source>
            <translation>{service} 站点必须是 https:// 地址。</translation>
        </message>
        <message>
            <source>{service} refused the key (expired or revoked). Reconnect {service} in Settings → Connectors.</source>
            <translation>{service} 拒绝了密钥（已过期或已被撤销）。请在“设置 → 连接器”中重新连接 {service}。</translation>
        </message>
        <message>
            <source>{service}: {detail}</source>
            <translation>{service}：{detail}</translation>
        </message>
        <message>
            <source>Linear did not add the comment.</source>
            <translation>Linear 没有添加该评论。</translation>
        </message>
        <message>
            <source>{target} is not a Slack target: use slack:&lt;channel id&gt; or slack:&lt;channel id&gt;:&lt;thread ts&gt;.</source>
            <translation>{target} 不是 Slack 目标：请使用 slack:&lt;频道 ID&gt; 或 slack:&lt;频道 ID&gt;:&lt;话题 ts&gt;。</translation>
        </message>
        <message>
            <source>{target} names no message: use slack:&lt;channel id&gt;:&lt;message ts&gt;.</source>
            <translation>{target} 没有指明消息：请使用 slack:&lt;频道 ID&gt;:&lt;消息 ts&gt;。</translation>
        </message>
        <message>
            <source>Slack has no {token}: add it in Settings → Connectors → Slack (searching needs a user token, xoxp-…).</source>
            <translation>Slack 缺少 {token}：请在“设置 → 连接器 → Slack”中添加（搜索需要用户令牌 xoxp-…）。</translation>
        </message>
        <message>
            <source>{service} refused the token ({error}). Reconnect {service} in Settings → Connectors.</source>
            <translation>{service} 拒绝了令牌（{error}）。请在“设置 → 连接器”中重新连接 {service}。</translation>
        </message>
        <message>
            <source>{service} refused the request: {error}.</source>
            <translation>{service} 拒绝了请求：{error}。</translation>
        </message>
        <message>
            <source>Only files in the session's folder ({folder}) can be sent to Slack.</source>
            <translation>只有会话文件夹（{folder}）中的文件可以发送到 Slack。</translation>
        </message>
        <message>
            <source>Cannot read {name}: {problem}.</source>
            <translation>无法读取 {name}：{problem}。</translation>
        </message>
        <message>
            <source>Slack refused the file: {error}.</source>
            <translation>Slack 拒绝了该文件：{error}。</translation>
        </message>
        <message>
            <source>This Asana account has no workspace.</source>
            <translation>此 Asana 账户没有工作区。</translation>
        </message>
        <message>
            <source>{service} answered with a web page instead of data. Check the address in its settings: a proxy or a sign-in page may be in the way.</source>
            <translation>{service} 返回的是网页而不是数据。请检查其设置中的地址：可能有代理或登录页面挡在中间。</translation>
        </message>
        <message>
            <source>{service} answered with something that is not readable data (broken JSON). Check the address in its settings: a proxy may be in the way.</source>
            <translation>{service} 返回的内容不是可读的数据（JSON 已损坏）。请检查其设置中的地址：可能有代理挡在中间。</translation>
        </message>
        <message>
            <source>{service} was not called: a name given would lead to another of its addresses ({part}). Check the names given.</source>
            <translation>未调用 {service}：给出的名称会指向它的另一个地址（{part}）。请检查给出的名称。</translation>
        </message>
        <message>
            <source>Name the repository as {example} (letters, digits, '.', '_' and '-'), not {value}.</source>
            <translation>请以 {example} 的形式指定仓库（字母、数字、“.”、“_”和“-”），而不是 {value}。</translation>
        </message>
    </context>
    <context>
        <name>DesktopApp</name>
        <message>
            <location filename="../../openworker_qt/app.py" line="324" />
            <source>No system tray is available here: OpenWorker keeps working window-only (quick ask is in the Window menu).</source>
            <translation>这里没有系统托盘：OpenWorker 将仅以窗口方式工作（快速提问在“窗口”菜单中）。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="367" />
            <source>a session</source>
            <translation>某个会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="371" />
            <source>Approval needed: {tool}</source>
            <translation>需要审批：{tool}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="373" />
            <source>Approve</source>
            <translation>批准</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="373" />
            <source>Deny</source>
            <translation>拒绝</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="376" />
            <source>OpenWorker has a question</source>
            <translation>OpenWorker 有一个问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="391" />
            <source>Finished</source>
            <translation>已完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="391" />
            <source>Failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="393" />
            <source>Click to open the session.</source>
            <translation>点击打开该会话。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="288" />
            <source>{name} could not start: {reason}</source>
            <translation>{name} 无法启动：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="184" />
            <source>The MCP server {name} is not working: {reason}</source>
            <translation>MCP 服务器 {name} 无法工作：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="431" />
            <source>An automation</source>
            <translation>一个自动任务</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="433" />
            <source>Finished: {name}</source>
            <translation>已完成：{name}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="434" />
            <source>Deliverables: {files}</source>
            <translation>成果文件：{files}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="435" />
            <source>Click to open the run.</source>
            <translation>点击打开这次运行。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="437" />
            <source>Failed: {name}</source>
            <translation>失败：{name}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="438" />
            <source>Click to see what happened.</source>
            <translation>点击查看发生了什么。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/app.py" line="494" />
            <source>MCP servers</source>
            <translation>MCP 服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/desktop_notices.py" line="1" />
            <source>Answer…</source>
            <translation>回答…</translation>
        </message>
    </context>
    <context>
        <name>EmptyState</name>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="53" />
            <source>Good morning</source>
            <translation>早上好</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="55" />
            <source>Good afternoon</source>
            <translation>下午好</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="56" />
            <source>Good evening</source>
            <translation>晚上好</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="66" />
            <source>Getting started</source>
            <translation>开始使用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="81" />
            <source>What should we get done?</source>
            <translation>今天要完成什么？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="85" />
            <source>OpenWorker reads and changes files in your folder, runs programs and looks things up for you. It asks before it changes anything or sends anything off this computer.</source>
            <translation>OpenWorker 可以读取和修改你文件夹中的文件、运行程序、帮你查找资料。在修改任何内容或把数据发送到这台电脑之外之前，它都会先征求你的同意。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="99" />
            <source>Summarise the documents in this folder in one page</source>
            <translation>用一页纸总结此文件夹中的文档</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="100" />
            <source>Sort the files in this folder into subfolders by type</source>
            <translation>按类型把此文件夹中的文件整理到子文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="101" />
            <source>Make a to-do list from the notes in this folder</source>
            <translation>根据此文件夹中的笔记整理一份待办清单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="102" />
            <source>Research a topic on the web and write a short report</source>
            <translation>在网上调研一个主题并写一份简短报告</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="112" />
            <source>Put this request into the message box</source>
            <translation>把这个请求填入消息框</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="119" />
            <source>Recent deliverables</source>
            <translation>最近的成果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="163" />
            <source>Working in {folder}</source>
            <translation>工作文件夹：{folder}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/empty_state.py" line="185" />
            <source>Open {name}</source>
            <translation>打开 {name}</translation>
        </message>
    </context>
    <context>
        <name>FoldersPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="408" />
            <location filename="../../openworker_qt/ui/settings_pages.py" line="414" />
            <source>Writable folders</source>
            <translation>可写文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="409" />
            <source>Folders the assistant may change files in (besides each session's workspace). Anything outside needs your approval.</source>
            <translation>助手可以修改其中文件的文件夹（每个会话的工作区除外）。其他位置都需要你的批准。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="415" />
            <source>The assistant may change files inside these folders</source>
            <translation>助手可以修改这些文件夹中的文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="416" />
            <source>&amp;Add folder…</source>
            <translation>添加文件夹(&amp;A)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="416" />
            <source>Add folder</source>
            <translation>添加文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="417" />
            <source>Choose a folder the assistant may change</source>
            <translation>选择一个助手可以修改的文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="425" />
            <source>Choose a writable folder</source>
            <translation>选择可写文件夹</translation>
        </message>
    </context>
    <context>
        <name>GlobalHotkey</name>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="95" />
            <source>“{sequence}” is not a key combination</source>
            <extracomment>Quick ask's key, global (where the platform allows) and inside the window alike; the README names it too (tests/ui/test_hotkey.py checks they agree).</extracomment>
            <translation>“{sequence}”不是有效的组合键</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="101" />
            <source>The global hotkey could not be set: {error}</source>
            <translation>无法设置全局快捷键：{error}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="105" />
            <source>Global hotkey {sequence} is active</source>
            <translation>全局快捷键 {sequence} 已启用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="550" />
            <source>Global hotkeys are not available on Wayland: use the tray, or {sequence} while the OpenWorker window is active, for quick ask.</source>
            <translation>Wayland 下无法使用全局快捷键：请通过托盘图标，或在 OpenWorker 窗口处于活动状态时按 {sequence} 打开快速提问。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="554" />
            <source>Global hotkeys are not available on this display ({name}).</source>
            <translation>此显示环境（{name}）不支持全局快捷键。</translation>
        </message>
    </context>
    <context>
        <name>GrantDialog</name>
        <message>
            <source>{name}/ (read only)</source>
            <translation>{name}/（只读）</translation>
        </message>
        <message>
            <source>{name}/ (read and write)</source>
            <translation>{name}/（读写）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="39" />
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="42" />
            <source>Grant folder access</source>
            <translation>授予文件夹访问权限</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="44" />
            <source>Choose whether the agent may only read {folder} or also change files there</source>
            <translation>选择智能体只能读取 {folder}，还是也可以修改其中的文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="47" />
            <source>Let the agent use &lt;b&gt;{name}&lt;/b&gt; in this session?</source>
            <translation>允许智能体在本会话中使用 &lt;b&gt;{name}&lt;/b&gt; 吗？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="52" />
            <source>Folder</source>
            <translation>文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="54" />
            <source>Read only: the agent can list and read files there.
Read and write: it may also create and change files there, still following the session's permission mode.
The grant applies to this session only.</source>
            <translation>只读：智能体可以列出并读取其中的文件。
读写：它还可以在其中创建和修改文件，但仍遵循会话的权限模式。
此授权仅适用于本会话。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="63" />
            <source>&amp;Read only</source>
            <translation>只读(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="64" />
            <source>Grant read-only access</source>
            <translation>授予只读权限</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="65" />
            <source>Read and &amp;write</source>
            <translation>读写(&amp;W)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="66" />
            <source>Grant read and write access</source>
            <translation>授予读写权限</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="67" />
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/grant_dialog.py" line="68" />
            <source>Do not grant access</source>
            <translation>不授予权限</translation>
        </message>
    </context>
    <context>
        <name>InboxWindow</name>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="73" />
            <source>Inbox — OpenWorker Qt</source>
            <translation>收件箱 — OpenWorker Qt</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="74" />
            <source>Inbox</source>
            <translation>收件箱</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="75" />
            <source>Everything waiting for you, across sessions</source>
            <translation>所有会话中等待你处理的事项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="80" />
            <source>Filter by session</source>
            <translation>按会话筛选</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="81" />
            <location filename="../../openworker_qt/ui/inbox_window.py" line="82" />
            <source>Show the items of one session only</source>
            <translation>只显示一个会话的事项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="85" />
            <source>Pending count</source>
            <translation>待处理数量</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="93" />
            <source>Pending items</source>
            <translation>待处理事项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="94" />
            <source>Approvals, questions, plans and folder requests</source>
            <translation>审批、问题、计划和文件夹请求</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="115" />
            <source>Kind</source>
            <translation>类型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="115" />
            <source>Session</source>
            <translation>会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="116" />
            <source>What it asks</source>
            <translation>请求内容</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="117" />
            <source>Risk</source>
            <translation>风险</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="117" />
            <source>Target</source>
            <translation>目标</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="118" />
            <source>Reason</source>
            <translation>原因</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="138" />
            <source>Arguments</source>
            <translation>参数</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="139" />
            <source>Exactly what the call would do</source>
            <translation>这次调用具体会做什么</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="142" />
            <source>&amp;Approve once</source>
            <translation>批准一次(&amp;A)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="143" />
            <source>A&amp;lways allow</source>
            <translation>始终允许(&amp;L)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="144" />
            <source>&amp;Deny</source>
            <translation>拒绝(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="145" />
            <source>&amp;Open session</source>
            <translation>打开会话(&amp;O)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="146" />
            <source>Run this call now (Ctrl+Enter)</source>
            <translation>现在运行这次调用（Ctrl+Enter）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="147" />
            <source>Allow this tool for this exact target from now on</source>
            <translation>从现在起，对这个目标始终允许此工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="148" />
            <source>Do not run this call (Ctrl+Delete)</source>
            <translation>不运行这次调用（Ctrl+Delete）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="149" />
            <source>Show the session this item belongs to</source>
            <translation>显示此事项所属的会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="157" />
            <source>Suggested answers</source>
            <translation>建议的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="159" />
            <source>Your answer</source>
            <translation>你的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="160" />
            <location filename="../../openworker_qt/ui/inbox_window.py" line="162" />
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="161" />
            <source>Type the answer and press Enter</source>
            <translation>输入回答并按 Enter</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="163" />
            <source>Send answer</source>
            <translation>发送回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="179" />
            <source>Inbox empty</source>
            <translation>收件箱为空</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="215" />
            <source>All sessions</source>
            <translation>所有会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="241" />
            <source>{n} pending</source>
            <translation>{n} 项待处理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="185" />
            <source>Answer not taken</source>
            <translation>回答未被采用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="349" />
            <source>#{n} was already answered somewhere else; your answer was not taken.</source>
            <translation>#{n} 已在别处得到回答；你的回答未被采用。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="131" />
            <source>Question</source>
            <translation>问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="173" />
            <source>&lt;p style='font-size:large'&gt;Nothing needs you right now&lt;/p&gt;&lt;p&gt;Approvals and questions from your sessions show up here.&lt;/p&gt;</source>
            <translation>&lt;p style='font-size:large'&gt;目前没有需要你处理的事项&lt;/p&gt;&lt;p&gt;各会话中的批准请求和问题会显示在这里。&lt;/p&gt;</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="180" />
            <source>Nothing needs you right now</source>
            <translation>目前没有需要你处理的事项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="228" />
            <source>Untitled session</source>
            <translation>未命名会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="271" />
            <source>In the session {title}</source>
            <translation>所在会话：{title}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="284" />
            <source>Target: {target}</source>
            <translation>目标：{target}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="294" />
            <source>Options: {options}</source>
            <translation>选项：{options}</translation>
        </message>
        <message>
            <source>Session:</source>
            <translation>会话：</translation>
        </message>
        <message>
            <source>Nothing is waiting for you.</source>
            <translation>没有等待你处理的事项。</translation>
        </message>
        <message>
            <source>A&amp;lways for this task: this exact command</source>
            <translation>此任务始终允许这条命令(&amp;L)</translation>
        </message>
        <message>
            <source>Let this scheduled task run `{command}` from now on without asking; the task's settings list it, and it can be removed there</source>
            <translation>从现在起，此计划任务运行 `{command}` 时不再询问；任务设置中会列出此项，也可以在那里移除</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/inbox_window.py" line="1" />
            <source>That answer does not fit the question: {why}.</source>
            <translation>这个回答不符合问题：{why}。</translation>
        </message>
    </context>
    <context>
        <name>LateAnswer</name>
        <message>
            <location filename="../../openworker_qt/ui/late_answers.py" line="22" />
            <source>#{n} was closed because the conversation moved on: a new message was sent before it was answered, so nothing was run. Ask again in the session if it is still needed.</source>
            <translation>#{n} 已关闭，因为对话已经继续：在它得到回答之前发送了新消息，因此没有执行任何操作。如果仍然需要，请在会话中重新提出。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/late_answers.py" line="28" />
            <source>#{n} was withdrawn because the turn was stopped; nothing was run.</source>
            <translation>#{n} 已撤回，因为本轮任务已停止；没有执行任何操作。</translation>
        </message>
    </context>
    <context>
        <name>ListEditor</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="315" />
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="315" />
            <source>Remove selected from {name}</source>
            <translation>从{name}中移除所选项</translation>
        </message>
    </context>
    <context>
        <name>MacHotkey</name>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="513" />
            <source>This key cannot be used as a global hotkey</source>
            <translation>这个按键不能用作全局快捷键</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="521" />
            <source>Another application already uses this key combination</source>
            <translation>另一个应用已在使用这个组合键</translation>
        </message>
    </context>
    <context>
        <name>MainWindow</name>
        <message>
            <source>Deleting the session…</source>
            <translation>正在删除会话…</translation>
        </message>
        <message>
            <source>The session could not be deleted; it is still there.</source>
            <translation>无法删除该会话，它仍然保留着。</translation>
        </message>
        <message>
            <source>Session deleted</source>
            <translation>会话已删除</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="167" />
            <location filename="../../openworker_qt/ui/main_window.py" line="500" />
            <source>OpenWorker Qt</source>
            <translation>OpenWorker Qt</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="168" />
            <source>OpenWorker Qt main window</source>
            <translation>OpenWorker Qt 主窗口</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="265" />
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="266" />
            <source>&amp;New session</source>
            <translation>新建会话(&amp;N)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="267" />
            <source>&amp;Search sessions</source>
            <translation>搜索会话(&amp;S)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="268" />
            <source>&amp;Attach files…</source>
            <translation>添加附件(&amp;A)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="272" />
            <source>Se&amp;ttings…</source>
            <translation>设置(&amp;T)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="274" />
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="275" />
            <source>&amp;Session</source>
            <translation>会话(&amp;S)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="276" />
            <source>&amp;Send</source>
            <translation>发送(&amp;S)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="277" />
            <source>S&amp;top</source>
            <translation>停止(&amp;T)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="278" />
            <source>&amp;Retry</source>
            <translation>重试(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="283" />
            <source>&amp;Approve focused request</source>
            <translation>批准当前请求(&amp;A)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="285" />
            <source>&amp;Deny focused request</source>
            <translation>拒绝当前请求(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="289" />
            <source>&amp;Window</source>
            <translation>窗口(&amp;W)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="290" />
            <source>&amp;Inbox</source>
            <translation>收件箱(&amp;I)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="293" />
            <source>&amp;Quick ask</source>
            <translation>快速提问(&amp;Q)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="295" />
            <source>&amp;Focus message box</source>
            <translation>聚焦消息框(&amp;F)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="531" />
            <source>{title} — OpenWorker Qt</source>
            <translation>{title} — OpenWorker Qt</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="531" />
            <source>New session</source>
            <translation>新建会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="563" />
            <location filename="../../openworker_qt/ui/main_window.py" line="662" />
            <location filename="../../openworker_qt/ui/main_window.py" line="720" />
            <source>Retry</source>
            <translation>重试</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="872" />
            <source>Attach files</source>
            <translation>添加附件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="269" />
            <source>Default &amp;folder for new sessions…</source>
            <translation>新会话的默认文件夹(&amp;F)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="209" />
            <source>Deliverables</source>
            <translation>成果文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="297" />
            <source>&amp;Deliverables</source>
            <translation>成果文件(&amp;D)</translation>
        </message>
        <message>
            <source>&amp;Automations</source>
            <translation>自动任务(&amp;A)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/main_window.py" line="1" />
            <source>Exported to {path}</source>
            <translation>已导出到 {path}</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>Check for &amp;updates…</source>
            <translation>检查更新(&amp;U)…</translation>
        </message>
    </context>
    <context>
        <name>MicButton</name>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="55" />
            <location filename="../../openworker_qt/ui/voice.py" line="65" />
            <source>Voice</source>
            <translation>语音</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="56" />
            <source>Voice input</source>
            <translation>语音输入</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="58" />
            <source>Hold to dictate; release to put the words into the message</source>
            <translation>按住说话；松开后文字将放入消息框</translation>
        </message>
    </context>
    <context>
        <name>McpComposer</name>
        <message>
            <source>None of your MCP servers that are running offers anything to attach.</source>
            <translation>正在运行的 MCP 服务器都没有可附加的内容。</translation>
        </message>
        <message>
            <source>Attach from an MCP server</source>
            <translation>从 MCP 服务器附加</translation>
        </message>
        <message>
            <source>What your MCP servers offer. The one you choose is read now and added to your message.</source>
            <translation>你的 MCP 服务器提供的内容。你选择的内容会立即读取并添加到你的消息中。</translation>
        </message>
        <message>
            <source>{name} could not be read from the MCP server {server}: {reason}</source>
            <translation>无法从 MCP 服务器 {server} 读取 {name}：{reason}</translation>
        </message>
        <message>
            <source>None of your MCP servers that are running offers a prompt.</source>
            <translation>正在运行的 MCP 服务器都没有提供提示词。</translation>
        </message>
        <message>
            <source>Prompts from your MCP servers</source>
            <translation>来自 MCP 服务器的提示词</translation>
        </message>
        <message>
            <source>The prompt you choose is put into your message, for you to read before sending.</source>
            <translation>你选择的提示词会放入你的消息中，发送前你可以先阅读。</translation>
        </message>
        <message>
            <source>The prompt {name} of the MCP server {server} did not come: {reason}</source>
            <translation>未能获取 MCP 服务器 {server} 的提示词 {name}：{reason}</translation>
        </message>
    </context>
    <context>
        <name>McpPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="144" />
            <source>All tools on</source>
            <translation>全部工具开启</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="145" />
            <source>All tools off</source>
            <translation>全部工具关闭</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="108" />
            <source>MCP servers</source>
            <translation>MCP 服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="114" />
            <source>Tool</source>
            <translation>工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="114" />
            <source>Risk</source>
            <translation>风险</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="114" />
            <source>The server says</source>
            <translation>服务器的说明</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="115" />
            <source>The server's tools</source>
            <translation>服务器的工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="119" />
            <source>What the server printed</source>
            <translation>服务器的输出</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="122" />
            <source>Add…</source>
            <translation>添加…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="123" />
            <source>Import…</source>
            <translation>导入…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="124" />
            <source>Test server</source>
            <translation>测试服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="125" />
            <source>Restart</source>
            <translation>重启</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="126" />
            <source>Sign in</source>
            <translation>登录</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="127" />
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="128" />
            <source>Doctor</source>
            <translation>诊断</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="135" />
            <source>Log and what the server printed:</source>
            <translation>日志和服务器的输出：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="142" />
            <source>MCP servers give the assistant tools from other programs. Every tool asks before it runs unless you lower its risk here.</source>
            <translation>MCP 服务器为助手提供来自其他程序的工具。每个工具在运行前都会先征求你的同意，除非你在这里降低它的风险等级。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="154" />
            <source>Trust this folder's servers…</source>
            <translation>信任此文件夹的服务器…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="225" />
            <source>No MCP servers yet: Add one, or Import the ones Claude Desktop, Cursor or VS Code use.</source>
            <translation>还没有 MCP 服务器：添加一个，或导入 Claude Desktop、Cursor 或 VS Code 所用的服务器。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="241" />
            <source>Risk of {tool}</source>
            <translation>{tool} 的风险</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="298" />
            <source>There is already a server named {name}.</source>
            <translation>已有名为 {name} 的服务器。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="310" />
            <source>Import MCP servers</source>
            <translation>导入 MCP 服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="311" />
            <source>JSON files (*.json)</source>
            <translation>JSON 文件 (*.json)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="328" />
            <source>From {app}: added {names}.</source>
            <translation>已从 {app} 添加：{names}。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="345" />
            <source>Testing {name}…</source>
            <translation>正在测试 {name}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="349" />
            <source>Tools: {names}</source>
            <translation>工具：{names}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="369" />
            <source>Finish signing in in your browser…</source>
            <translation>请在浏览器中完成登录…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="375" />
            <source>Signed in.</source>
            <translation>已登录。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="394" />
            <source>gets from your keyring: {names}</source>
            <translation>从你的钥匙串读取：{names}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="398" />
            <source>Trust this folder's MCP servers?</source>
            <translation>信任此文件夹的 MCP 服务器？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="399" />
            <source>{path} asks to run these programs:

{listing}

Only trust files you or your team wrote. If the file changes, you are asked again.</source>
            <translation>{path} 请求运行以下程序：

{listing}

只信任你或你的团队编写的文件。如果文件有改动，会再次询问你。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="436" />
            <source>Looking for node, npx, uvx and python…</source>
            <translation>正在查找 node、npx、uvx 和 python…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="205" />
            <source> · {n} tools</source>
            <translation> · {n} 个工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="207" />
            <source> · this folder</source>
            <translation> · 此文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="214" />
            <source>not started</source>
            <translation>未启动</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="214" />
            <source>turned off</source>
            <translation>已关闭</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="215" />
            <source>starting</source>
            <translation>正在启动</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="216" />
            <source>ready, {n} tools</source>
            <translation>就绪，{n} 个工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="217" />
            <source>not working</source>
            <translation>无法工作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_mcp.py" line="219" />
            <source>{state}: {message}</source>
            <translation>{state}：{message}</translation>
        </message>
    </context>
    <context>
        <name>ModelPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="261" />
            <location filename="../../openworker_qt/ui/settings_pages.py" line="268" />
            <source>Default model</source>
            <translation>默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="262" />
            <source>New sessions start with this model. Each session can switch model in the composer.</source>
            <translation>新会话使用这个模型。每个会话都可以在输入区切换模型。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="269" />
            <source>Pick from the configured providers or type provider:model</source>
            <translation>从已配置的提供商中选择，或输入 提供商:模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="271" />
            <source>Default model name</source>
            <translation>默认模型名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="276" />
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="295" />
            <source>New sessions use {model}.</source>
            <translation>新会话将使用 {model}。</translation>
        </message>
    </context>
    <context>
        <name>OnboardingDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="68" />
            <source>Custom server (OpenAI-compatible)</source>
            <translation>自定义服务器（兼容 OpenAI）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="70" />
            <source>Ollama (on this computer or your network)</source>
            <translation>Ollama（本机或局域网）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="91" />
            <location filename="../../openworker_qt/ui/onboarding.py" line="92" />
            <source>Welcome to OpenWorker</source>
            <translation>欢迎使用 OpenWorker</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="93" />
            <source>Connect a model provider and choose a default model</source>
            <translation>连接模型提供商并选择默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="112" />
            <source>Connect a model</source>
            <translation>连接模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="131" />
            <source>Keyring warning</source>
            <translation>钥匙串警告</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="138" />
            <source>Provider</source>
            <translation>提供商</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="139" />
            <source>Which service runs the model</source>
            <translation>由哪个服务运行模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="142" />
            <location filename="../../openworker_qt/ui/onboarding.py" line="267" />
            <source>Paste your API key</source>
            <translation>粘贴你的 API 密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="143" />
            <source>API key</source>
            <translation>API 密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="144" />
            <source>Checked with one small request, then stored in the keyring</source>
            <translation>先用一个很小的请求验证，然后保存到钥匙串</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="146" />
            <location filename="../../openworker_qt/ui/onboarding.py" line="147" />
            <source>Server URL</source>
            <translation>服务器地址</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="148" />
            <source>API &amp;key</source>
            <translation>API 密钥(&amp;K)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="150" />
            <source>&amp;Provider</source>
            <translation>提供商(&amp;P)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="160" />
            <source>Check result</source>
            <translation>验证结果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="165" />
            <source>&amp;Skip for now</source>
            <translation>暂时跳过(&amp;S)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="166" />
            <source>Skip for now</source>
            <translation>暂时跳过</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="167" />
            <source>Set up a provider later in Settings</source>
            <translation>稍后在设置中配置提供商</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="168" />
            <source>&amp;Check and continue</source>
            <translation>验证并继续(&amp;C)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="169" />
            <source>Check and continue</source>
            <translation>验证并继续</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="170" />
            <source>Try the key with one real request, then store it</source>
            <translation>用一个真实请求验证密钥，然后保存</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="215" />
            <source>Choose a default model</source>
            <translation>选择默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="223" />
            <source>Default model</source>
            <translation>默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="224" />
            <source>Used by new sessions; each session can switch</source>
            <translation>新会话使用此模型；每个会话都可以切换</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="226" />
            <source>Default model name</source>
            <translation>默认模型名称</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="232" />
            <source>&amp;Back</source>
            <translation>返回(&amp;B)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="233" />
            <source>Back</source>
            <translation>返回</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="234" />
            <source>&amp;Finish</source>
            <translation>完成(&amp;F)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="235" />
            <source>Finish</source>
            <translation>完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="236" />
            <source>Save the default model and start working</source>
            <translation>保存默认模型并开始工作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="264" />
            <source>Base URL (optional)</source>
            <translation>基础地址（可选）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="265" />
            <source>Leave empty for the official endpoint</source>
            <translation>留空则使用官方接口</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="266" />
            <source>Only for a proxy or gateway; usually empty</source>
            <translation>仅用于代理或网关；通常留空</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="269" />
            <source>Ollama &amp;URL</source>
            <translation>Ollama 地址(&amp;U)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="271" />
            <source>Where Ollama listens; empty means {url}</source>
            <translation>Ollama 的监听地址；留空表示 {url}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="273" />
            <source>Base &amp;URL</source>
            <translation>基础地址(&amp;U)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="275" />
            <source>The server's OpenAI-compatible endpoint, ending in /v1</source>
            <translation>服务器兼容 OpenAI 的接口地址，以 /v1 结尾</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="276" />
            <source>API key, if the server needs one</source>
            <translation>API 密钥（如果服务器需要）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="304" />
            <source>No secure keyring is available, so the key was not stored.</source>
            <translation>没有可用的安全钥匙串，因此密钥未被保存。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="307" />
            <source>Paste an API key first.</source>
            <translation>请先粘贴 API 密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="310" />
            <source>Enter the server's base URL first.</source>
            <translation>请先输入服务器的基础地址。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="313" />
            <source>Checking…</source>
            <translation>正在验证…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="317" />
            <location filename="../../openworker_qt/ui/onboarding.py" line="320" />
            <source>That did not work: {message}</source>
            <translation>验证未通过：{message}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="327" />
            <source>The key worked but could not be stored: {message}</source>
            <translation>密钥有效，但无法保存：{message}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="364" />
            <source>Ollama answered but has no models yet. Pick one and download it with “ollama pull &lt;name&gt;”.</source>
            <translation>Ollama 已响应，但还没有模型。请选择一个，并用“ollama pull &lt;名称&gt;”下载。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="368" />
            <source>{provider} is connected. New sessions start with this model; you can switch per session.</source>
            <translation>{provider} 已连接。新会话将使用这个模型；每个会话都可以切换。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="118" />
            <source>OpenWorker works with the model provider you choose. Paste an API key, or point it at a model running on your computer (Ollama, LM Studio, llama.cpp: no key needed). Keys are kept in your system keyring, never in a file.</source>
            <translation>OpenWorker 使用你选择的模型提供商。粘贴 API 密钥，或指向在你电脑上运行的模型（Ollama、LM Studio、llama.cpp：无需密钥）。密钥保存在系统密钥环中，绝不写入文件。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="126" />
            <source>No secure keyring is available on this system, so API keys cannot be stored. Install and unlock one (for example GNOME Keyring or KWallet), or use a model running on your computer (Ollama, LM Studio, llama.cpp), which needs no key.</source>
            <translation>此系统上没有可用的安全密钥环，因此无法保存 API 密钥。请安装并解锁一个（例如 GNOME Keyring 或 KWallet），或使用在你电脑上运行的模型（Ollama、LM Studio、llama.cpp），它们无需密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="189" />
            <source>&lt;b&gt;No API key?&lt;/b&gt; Try the offline demo to see how OpenWorker works.</source>
            <translation>&lt;b&gt;没有 API 密钥？&lt;/b&gt;试试离线演示，看看 OpenWorker 如何工作。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="191" />
            <source>Without an API key</source>
            <translation>没有 API 密钥时</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="194" />
            <source>Use &amp;Ollama</source>
            <translation>使用 Ollama(&amp;O)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="195" />
            <source>Use Ollama</source>
            <translation>使用 Ollama</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="196" />
            <source>Connect to Ollama running on this computer</source>
            <translation>连接到在此电脑上运行的 Ollama</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="198" />
            <source>Try the offline &amp;demo</source>
            <translation>试用离线演示(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="199" />
            <source>Try the offline demo</source>
            <translation>试用离线演示</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="201" />
            <source>Open a demo session with pre-written answers: no AI model, nothing leaves this computer</source>
            <translation>打开一个使用预先写好的回答的演示会话：不使用 AI 模型，数据不会离开此电脑</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="395" />
            <source>&lt;b&gt;No API key?&lt;/b&gt; Ollama is running on this computer ({count} model(s)): use it, no key needed. Or try the offline demo first.</source>
            <translation>&lt;b&gt;没有 API 密钥？&lt;/b&gt;Ollama 正在此电脑上运行（{count} 个模型）：直接使用，无需密钥。也可以先试试离线演示。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="421" />
            <source>Demo: scripted answers, no AI model</source>
            <translation>演示：预设回答，无 AI 模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="428" />
            <source>Show me how you work.</source>
            <translation>给我演示一下你是怎么工作的。</translation>
        </message>
        <message>
            <source>OpenWorker works with the model provider you choose. Paste an API key, or point it at Ollama running on your computer. Keys are kept in your system keyring, never in a file.</source>
            <translation>OpenWorker 使用你选择的模型提供商。粘贴 API 密钥，或指向在你电脑上运行的 Ollama。密钥只保存在系统钥匙串中，绝不写入文件。</translation>
        </message>
        <message>
            <source>No secure keyring is available on this system, so API keys cannot be stored. Install and unlock one (for example GNOME Keyring or KWallet), or use Ollama, which needs no key.</source>
            <translation>此系统上没有可用的安全钥匙串，因此无法保存 API 密钥。请安装并解锁一个（例如 GNOME Keyring 或 KWallet），或使用无需密钥的 Ollama。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="249" />
            <source>A model server on this computer (LM Studio, Ollama, llama.cpp, vLLM)?</source>
            <translation>这台电脑上有模型服务器吗（LM Studio、Ollama、llama.cpp、vLLM）？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="251" />
            <source>&amp;Detect</source>
            <translation>检测(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="252" />
            <source>Detect model servers</source>
            <translation>检测模型服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="254" />
            <source>Look for LM Studio, Ollama, llama.cpp and vLLM at their usual addresses on this computer</source>
            <translation>在这台电脑的常用地址上查找 LM Studio、Ollama、llama.cpp 和 vLLM</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="259" />
            <source>Model servers found</source>
            <translation>找到的模型服务器</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="260" />
            <source>Pick one to use it</source>
            <translation>选择一个即可使用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="360" />
            <source>Server &amp;URL</source>
            <translation>服务器 URL(&amp;U)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="363" />
            <source>Where {server} listens; its usual address is {url}</source>
            <translation>{server} 的监听地址；常用地址是 {url}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="549" />
            <source>Looking for model servers on this computer…</source>
            <translation>正在这台电脑上查找模型服务器…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="570" />
            <source>Found {count} model server(s) on this computer: pick one to use it.</source>
            <translation>在这台电脑上找到 {count} 个模型服务器：选择一个即可使用。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="575" />
            <source>No model server answered at the usual addresses ({servers}). Start one, or pick it above and enter its address.</source>
            <translation>常用地址上没有模型服务器应答（{servers}）。请先启动一个，或在上方选择它并输入地址。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="488" />
            <source>no models yet</source>
            <translation>还没有模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="587" />
            <source>{model} ({tokens} tokens of context)</source>
            <translation>{model}（上下文 {tokens} 个 token）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="591" />
            <source> and {count} more</source>
            <translation>，另有 {count} 个</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="592" />
            <source>{server} at {url}:
{models}</source>
            <translation>{server}（{url}）：
{models}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/onboarding.py" line="603" />
            <source>{server} at {url}: press Check and continue.</source>
            <translation>{server}（{url}）：请按“验证并继续”。</translation>
        </message>
    </context>
    <context>
        <name>PermissionsPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="350" />
            <source>Permissions</source>
            <translation>权限</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="351" />
            <source>How much the assistant may do without asking. A session's own mode (in the composer) overrides the default.</source>
            <translation>助手无需询问可以做多少事。会话自己的模式（在输入区设置）优先于默认值。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="357" />
            <source>Discuss: talk only, no tools that change anything</source>
            <translation>讨论：只对话，不使用任何会改变内容的工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="358" />
            <source>Plan: read and propose a plan; changes need the plan approved</source>
            <translation>计划：读取并提出计划；修改需要先批准计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="359" />
            <source>Interactive: ask before every change</source>
            <translation>交互：每次修改前都询问</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="360" />
            <source>Auto: change files inside the writable folders without asking</source>
            <translation>自动：无需询问即可修改可写文件夹中的文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="361" />
            <source>Custom: follow your standing rules, ask for the rest</source>
            <translation>自定义：遵循你的常设规则，其余情况询问</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="367" />
            <source>Default permission mode</source>
            <translation>默认权限模式</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="368" />
            <source>Used by sessions that have no mode of their own</source>
            <translation>用于没有单独设置模式的会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="370" />
            <source>&amp;Mode</source>
            <translation>模式(&amp;M)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="375" />
            <source>Shell commands that run without asking (a prefix such as “git status”). They still ask when an option writes, deletes or runs a program; programs that run other programs (env, make, python, bash…) always ask; and a program OpenWorker does not know runs without asking only when given no options (nothing starting with - or +):</source>
            <translation>无需询问即可运行的 Shell 命令（命令前缀，例如“git status”）。某个选项会写入、删除或运行程序时仍会询问；会运行其他程序的程序（env、make、python、bash…）总是询问；OpenWorker 不认识的程序只有在不带任何选项（没有以 - 或 + 开头的参数）时才无需询问：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="378" />
            <source>Shell allowlist</source>
            <translation>Shell 允许列表</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="379" />
            <source>Commands starting with one of these run without asking</source>
            <translation>以这些前缀开头的命令无需询问即可运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="381" />
            <source>Command prefix</source>
            <translation>命令前缀</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="382" />
            <source>Command prefix to allow</source>
            <translation>要允许的命令前缀</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="383" />
            <source>&amp;Add</source>
            <translation>添加(&amp;A)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="383" />
            <source>Add command</source>
            <translation>添加命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="384" />
            <source>Add the command prefix to the allowlist</source>
            <translation>将命令前缀加入允许列表</translation>
        </message>
    </context>
    <context>
        <name>PersonaConsentDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Read files in the folders you give it, and change them (each change follows your permission mode)</source>
            <translation>读取你提供的文件夹中的文件并修改它们（每次修改都遵循你的权限模式）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Look at Git history and make commits in your projects</source>
            <translation>查看项目的 Git 历史并提交更改</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Run commands on this computer (each command follows your permission mode)</source>
            <translation>在这台电脑上运行命令（每条命令都遵循你的权限模式）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Ask you questions, propose plans and ask for access to more folders</source>
            <translation>向你提问、提出计划，并请求访问更多文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Save finished documents (reports, spreadsheets, PDFs) for you</source>
            <translation>为你保存完成的文档（报告、表格、PDF）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Keep a to-do list you can see</source>
            <translation>维护一份你能看到的待办清单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Search the web and read web pages</source>
            <translation>搜索网络并阅读网页</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Send a read-only helper to look through your files</source>
            <translation>派一个只读助手查看你的文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Use the skills installed on this computer</source>
            <translation>使用这台电脑上安装的技能</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Remember facts about you and your work between conversations</source>
            <translation>在不同对话之间记住关于你和你工作的事实</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Use your connected services (mail, chat, calendars and others)</source>
            <translation>使用你已连接的服务（邮件、聊天、日历等）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Use other tools built into OpenWorker</source>
            <translation>使用 OpenWorker 内置的其他工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Talk with you only: no tools, no files, no commands</source>
            <translation>只与你对话：没有工具、不碰文件、不运行命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Would like to use these connected services: {names}</source>
            <translation>希望使用这些已连接的服务：{names}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Suggests the “{mode}” permission mode (only a suggestion: your choice stays in force)</source>
            <translation>建议使用“{mode}”权限模式（仅为建议：你的选择依然有效）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Suggests the model {model}</source>
            <translation>建议使用模型 {model}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Enable {title}?</source>
            <translation>启用 {title}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Enable a persona</source>
            <translation>启用人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>“{title}” would like to work with you</source>
            <translation>“{title}”希望与你协作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Installed from {source}</source>
            <translation>安装来源：{source}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>If you enable it, it may:</source>
            <translation>启用后，它可以：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>It can never change your permissions: your permission mode, your folders and your rules stay as you set them, and anything risky still asks you first.</source>
            <translation>它永远无法更改你的权限：权限模式、文件夹和规则都保持你的设置，任何有风险的操作仍会先征求你的同意。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Enable</source>
            <translation>启用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Enable {title}</source>
            <translation>启用 {title}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Keep disabled</source>
            <translation>保持禁用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>It brings:</source>
            <translation>它还会带来：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Version {version}</source>
            <translation>版本 {version}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Adds the skill {name} ({count} files)</source>
            <translation>添加技能 {name}（{count} 个文件）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Adds the MCP server {name}, which runs “{command}” on this computer</source>
            <translation>添加 MCP 服务器 {name}，它会在这台电脑上运行“{command}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>Adds the MCP server {name}, which connects to {address}</source>
            <translation>添加 MCP 服务器 {name}，它会连接到 {address}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/persona_consent.py" line="1" />
            <source>(you set its secrets: {names})</source>
            <translation>（它的密钥由你设置：{names}）</translation>
        </message>
    </context>
    <context>
        <name>PersonasPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Personas</source>
            <translation>人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>A persona is who works on a session: its instructions and the tools it is offered. Personas you install stay disabled until you agree to what they may do; none can change your permissions.</source>
            <translation>人设决定由谁处理一个会话：它的指令以及可用的工具。你安装的人设在你同意其能力之前保持禁用；任何人设都无法更改你的权限。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Persona</source>
            <translation>人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>What it is for</source>
            <translation>用途</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Each persona and whether it is enabled</source>
            <translation>每个人设及其是否已启用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Install from &amp;folder…</source>
            <translation>从文件夹安装(&amp;F)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Install a persona from a folder</source>
            <translation>从文件夹安装人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Install from &amp;git…</source>
            <translation>从 git 安装(&amp;G)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Install a persona from a git address</source>
            <translation>从 git 地址安装人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>&amp;Enable…</source>
            <translation>启用(&amp;E)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Enable the selected persona</source>
            <translation>启用所选人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>&amp;Disable</source>
            <translation>禁用(&amp;D)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Disable the selected persona</source>
            <translation>禁用所选人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>&amp;Update</source>
            <translation>更新(&amp;U)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Fetch the selected persona again</source>
            <translation>重新获取所选人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>&amp;Remove</source>
            <translation>移除(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Remove the selected persona</source>
            <translation>移除所选人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} is disabled.</source>
            <translation>{name} 已禁用。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} was removed.</source>
            <translation>{name} 已移除。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Enabled</source>
            <translation>已启用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Disabled</source>
            <translation>已禁用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Needs your consent</source>
            <translation>需要你的同意</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Built in</source>
            <translation>内置</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>That did not work: {why}</source>
            <translation>操作未成功：{why}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Choose the persona's folder</source>
            <translation>选择人设所在的文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Install from git</source>
            <translation>从 git 安装</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Address of the git repository:</source>
            <translation>git 仓库地址：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Fetching {source}…</source>
            <translation>正在获取 {source}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} is enabled.</source>
            <translation>{name} 已启用。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} changed: review what it may do before enabling it.</source>
            <translation>{name} 已更改：启用前请查看它可以做什么。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} is up to date.</source>
            <translation>{name} 已是最新。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} stays disabled.</source>
            <translation>{name} 保持禁用。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>&amp;Import a file…</source>
            <translation>导入文件(&amp;I)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Import a persona shared as one file</source>
            <translation>导入以单个文件分享的人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>E&amp;xport…</source>
            <translation>导出(&amp;X)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Save the selected persona as one file to share</source>
            <translation>将所选人设保存为一个文件以便分享</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Choose the persona file</source>
            <translation>选择人设文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Personas (*.owpersona)</source>
            <translation>人设 (*.owpersona)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>Save the persona as</source>
            <translation>人设另存为</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="1" />
            <source>{name} was saved to {path} (without any secrets).</source>
            <translation>{name} 已保存到 {path}（不含任何密钥）。</translation>
        </message>
    </context>
    <context>
        <name>ProvidersPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="84" />
            <source>Providers and keys</source>
            <translation>提供商与密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="85" />
            <source>Keys are stored in your system keyring and are never shown again. A new or removed key is used from the next request on.</source>
            <translation>密钥保存在系统钥匙串中，之后不会再显示。新增或移除的密钥从下一次请求开始生效。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="91" />
            <source>No secure keyring is available on this system: keys cannot be stored.</source>
            <translation>此系统上没有可用的安全钥匙串：无法保存密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="93" />
            <source>Keyring warning</source>
            <translation>钥匙串警告</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="97" />
            <source>Provider</source>
            <translation>提供商</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="97" />
            <source>Key</source>
            <translation>密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="99" />
            <source>Providers</source>
            <translation>提供商</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="100" />
            <source>Each provider and whether its key is stored</source>
            <translation>各个提供商及其密钥是否已保存</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="113" />
            <source>New key for the selected provider</source>
            <translation>所选提供商的新密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="114" />
            <source>New API key</source>
            <translation>新 API 密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="115" />
            <source>Stored in the keyring for the selected provider</source>
            <translation>为所选提供商保存到钥匙串</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="116" />
            <source>&amp;Save key</source>
            <translation>保存密钥(&amp;S)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="116" />
            <source>Save key</source>
            <translation>保存密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="117" />
            <source>Store or replace the selected provider's key</source>
            <translation>保存或替换所选提供商的密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="118" />
            <source>&amp;Remove key</source>
            <translation>移除密钥(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="118" />
            <source>Remove key</source>
            <translation>移除密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="119" />
            <source>Delete the selected provider's key from the keyring</source>
            <translation>从钥匙串中删除所选提供商的密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="127" />
            <source>Ollama URL</source>
            <translation>Ollama 地址</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="128" />
            <source>Where Ollama listens; saved when you press Enter</source>
            <translation>Ollama 的监听地址；按 Enter 保存</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="129" />
            <source>&amp;Ollama URL</source>
            <translation>Ollama 地址(&amp;O)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="136" />
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="137" />
            <source>&amp;Guided set-up…</source>
            <translation>引导设置(&amp;G)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="137" />
            <source>Guided set-up</source>
            <translation>引导设置</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="138" />
            <source>Check a key with a real request and choose a default model</source>
            <translation>用真实请求验证密钥并选择默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="194" />
            <source>Stored</source>
            <translation>已保存</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="191" />
            <source>Not set</source>
            <translation>未设置</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="204" />
            <source>Type a key first.</source>
            <translation>请先输入密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="213" />
            <source>Key saved for {provider}.</source>
            <translation>已保存 {provider} 的密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="229" />
            <source>Key removed for {provider}.</source>
            <translation>已移除 {provider} 的密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="230" />
            <source>No key was stored for {provider}.</source>
            <translation>{provider} 没有已保存的密钥。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="239" />
            <source>Ollama URL saved.</source>
            <translation>Ollama 地址已保存。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="193" />
            <source>From the environment ({variable})</source>
            <translation>来自环境变量（{variable}）</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>地址</translation>
        </message>
        <message>
            <source>Each provider, whether its key is stored and the server it is reached at</source>
            <translation>每个提供方、其密钥是否已保存，以及连接的服务器</translation>
        </message>
        <message>
            <source>Server address</source>
            <translation>服务器地址</translation>
        </message>
        <message>
            <source>Where the selected provider's server listens; saved when you press Enter</source>
            <translation>所选提供方的服务器地址；按回车保存</translation>
        </message>
        <message>
            <source>Server &amp;address</source>
            <translation>服务器地址(&amp;A)</translation>
        </message>
        <message>
            <source>This provider is reached at its own address</source>
            <translation>此提供方使用其自己的地址</translation>
        </message>
        <message>
            <source>No key needed</source>
            <translation>无需密钥</translation>
        </message>
        <message>
            <source>Address saved for {provider}.</source>
            <translation>已保存 {provider} 的地址。</translation>
        </message>
        <message>
            <source>Your AWS sign-in (no key)</source>
            <translation>你的 AWS 登录（无需密钥）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="1" />
            <source>&amp;Test</source>
            <translation>测试(&amp;T)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="1" />
            <source>Test the selected platform</source>
            <translation>测试所选平台</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="1" />
            <source>Make the smallest real request with the stored settings</source>
            <translation>用已保存的设置发出一个最小的真实请求</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="1" />
            <source>Testing {provider}…</source>
            <translation>正在测试 {provider}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="1" />
            <source>{provider} did not work: {why}</source>
            <translation>{provider} 不可用：{why}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_pages.py" line="1" />
            <source>{provider} answered: the settings work.</source>
            <translation>{provider} 已回应：设置可用。</translation>
        </message>
    </context>
    <context>
        <name>Personas</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="41" />
            <source>Cowork</source>
            <translation>协作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="43" />
            <source>A coworker who researches, analyses and delivers finished files</source>
            <translation>能调研、分析并交付成品文件的同事</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="45" />
            <source>Code</source>
            <translation>编程</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="46" />
            <source>A senior engineer working in one code repository</source>
            <translation>在一个代码仓库中工作的资深工程师</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="48" />
            <source>Chat</source>
            <translation>聊天</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="49" />
            <source>Quick questions and answers, no tools and no folder</source>
            <translation>快速问答，不使用工具，也不需要文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="51" />
            <source>Ops</source>
            <translation>运维</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="53" />
            <source>Careful operations work on servers, services and deployments</source>
            <translation>谨慎地处理服务器、服务和部署方面的运维工作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="55" />
            <source>My helper</source>
            <translation>我的助手</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_personas.py" line="57" />
            <source>A long-lived personal assistant that keeps notes and remembers</source>
            <translation>长期陪伴的个人助理，会做笔记，也会记住事情</translation>
        </message>
        <message>
            <source>Team</source>
            <translation>团队</translation>
        </message>
        <message>
            <source>A lead who plans a big outcome, staffs coworkers to do the parts and assembles the result</source>
            <translation>规划一项大型成果、安排同事分头完成各部分并汇总结果的负责人</translation>
        </message>
        <message>
            <source>Software team</source>
            <translation>软件团队</translation>
        </message>
        <message>
            <source>A tech lead who splits a change across coders and a reviewer, then merges the work</source>
            <translation>把一项改动拆分给程序员和审阅者、再合并成果的技术负责人</translation>
        </message>
        <message>
            <source>DevOps team</source>
            <translation>DevOps 团队</translation>
        </message>
        <message>
            <source>An operations lead who investigates, plans reversible changes and has them done and checked</source>
            <translation>先调查、再规划可回滚的改动，并安排执行和检查的运维负责人</translation>
        </message>
        <message>
            <source>Researcher</source>
            <translation>研究员</translation>
        </message>
        <message>
            <source>Finds and reads the sources for one question and reports what they say</source>
            <translation>为一个问题查找并阅读资料，报告资料中的内容</translation>
        </message>
        <message>
            <source>Analyst</source>
            <translation>分析师</translation>
        </message>
        <message>
            <source>Works through figures and tables and shows how each result was reached</source>
            <translation>处理数字和表格，并说明每个结果是如何得出的</translation>
        </message>
        <message>
            <source>Writer</source>
            <translation>撰稿人</translation>
        </message>
        <message>
            <source>Turns notes and findings into a clear, finished document</source>
            <translation>把笔记和发现整理成清晰、完整的文档</translation>
        </message>
        <message>
            <source>Reviewer</source>
            <translation>审阅者</translation>
        </message>
        <message>
            <source>Checks work against its acceptance criteria and says exactly what falls short</source>
            <translation>对照验收标准检查工作，并准确指出不足之处</translation>
        </message>
    </context>
    <context>
        <name>QuestionCard</name>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="416" />
            <source>&lt;b&gt;Plan for your approval&lt;/b&gt;</source>
            <translation>&lt;b&gt;待你批准的计划&lt;/b&gt;</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="417" />
            <source>&lt;b&gt;Folder access requested&lt;/b&gt;</source>
            <translation>&lt;b&gt;请求访问文件夹&lt;/b&gt;</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="418" />
            <source>&lt;b&gt;Question&lt;/b&gt;</source>
            <translation>&lt;b&gt;问题&lt;/b&gt;</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="430" />
            <source>Answer: {option}</source>
            <translation>回答：{option}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="434" />
            <source>Type an answer and press Enter</source>
            <translation>输入回答并按 Enter</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="435" />
            <source>Your answer</source>
            <translation>你的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="439" />
            <source>Question from the assistant</source>
            <translation>助手的问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="1" />
            <source>&lt;b&gt;Questions&lt;/b&gt;</source>
            <translation>&lt;b&gt;问题&lt;/b&gt;</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/approval.py" line="1" />
            <source>Questions from the assistant</source>
            <translation>助手提出的问题</translation>
        </message>
    </context>
    <context>
        <name>PromptArgumentsDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/mcp_composer.py" line="84" />
            <source>{prompt} from {server}</source>
            <translation>来自 {server} 的 {prompt}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/mcp_composer.py" line="97" />
            <source>needed</source>
            <translation>必填</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/mcp_composer.py" line="97" />
            <source>optional</source>
            <translation>可选</translation>
        </message>
    </context>
    <context>
        <name>QuickAsk</name>
        <message>
            <source>Attached: {names}</source>
            <translation>附件：{names}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="84" />
            <source>Quick ask</source>
            <translation>快速提问</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="85" />
            <source>Ask something quickly; Esc closes</source>
            <translation>快速提问；按 Esc 关闭</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="93" />
            <source>Ask OpenWorker… (Enter to send, Esc to close)</source>
            <translation>向 OpenWorker 提问……（Enter 发送，Esc 关闭）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="94" />
            <source>Question</source>
            <translation>问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="95" />
            <source>What you want to know or have done</source>
            <translation>你想了解或完成的事</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="104" />
            <source>Your question</source>
            <translation>你的问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="108" />
            <source>Attachments</source>
            <translation>附件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="115" />
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="121" />
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="122" />
            <location filename="../../openworker_qt/ui/quick_ask.py" line="123" />
            <source>Open in window</source>
            <translation>在窗口中打开</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="124" />
            <source>Show this conversation in the main window</source>
            <translation>在主窗口中显示这段对话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="250" />
            <source>Waiting for your approval</source>
            <translation>等待你的批准</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="254" />
            <source>Failed: {message}</source>
            <translation>失败：{message}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="258" />
            <source>Done</source>
            <translation>完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="303" />
            <source> (read only)</source>
            <translation>（只读）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" line="203" />
            <source>Choose a model first: in the main window or in Settings.</source>
            <translation>请先选择模型：在主窗口或设置中选择。</translation>
        </message>
        <message>
            <source>Thinking…</source>
            <translation>思考中…</translation>
        </message>
        <message>
            <source>Running {tool}…</source>
            <translation>正在运行 {tool}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" />
            <source>Persona</source>
            <translation>角色</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/quick_ask.py" />
            <source>Who answers this question</source>
            <translation>由谁回答这个问题</translation>
        </message>
    </context>
    <context>
        <name>PushToTalk</name>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="121" />
            <source>Push-to-talk in other applications is not available on Wayland: hold the Voice button, or {sequence} while the OpenWorker window is active.</source>
            <translation>在 Wayland 下无法在其他应用中使用按住说话：请按住“语音”按钮，或在 OpenWorker 窗口处于活动状态时按住 {sequence}。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="123" />
            <source>Push-to-talk in other applications is not available on this display: hold the Voice button, or {sequence} while the OpenWorker window is active.</source>
            <translation>在此显示环境下无法在其他应用中使用按住说话：请按住“语音”按钮，或在 OpenWorker 窗口处于活动状态时按住 {sequence}。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="154" />
            <source>No microphone found. Connect one (or allow this app to use it in the system's privacy settings), then hold the key again.</source>
            <translation>未找到麦克风。请连接一个麦克风（或在系统的隐私设置中允许本应用使用它），然后再次按住快捷键。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="190" />
            <source>Voice input failed: {error}</source>
            <translation>语音输入失败：{error}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="200" />
            <source>No speech was recognised.</source>
            <translation>没有识别到语音。</translation>
        </message>
    </context>
    <context>
        <name>SettingsWindow</name>
        <message>
            <source>Memory</source>
            <translation>记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="68" />
            <source>Personas</source>
            <translation>人设</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="42" />
            <source>Settings — OpenWorker Qt</source>
            <translation>设置 — OpenWorker Qt</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="47" />
            <source>Settings</source>
            <translation>设置</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="54" />
            <source>Settings pages</source>
            <translation>设置页面</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="55" />
            <source>Choose a page; arrow keys move between pages</source>
            <translation>选择页面；方向键可在页面间切换</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="59" />
            <source>Providers and keys</source>
            <translation>提供商与密钥</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="60" />
            <source>Default model</source>
            <translation>默认模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="61" />
            <source>Permissions</source>
            <translation>权限</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="62" />
            <source>Writable folders</source>
            <translation>可写文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="63" />
            <source>Appearance</source>
            <translation>外观</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="72" />
            <source>Close settings</source>
            <translation>关闭设置</translation>
        </message>
        <message>
            <source>Connectors</source>
            <translation>连接器</translation>
        </message>
        <message>
            <source>Voice</source>
            <translation>语音</translation>
        </message>
        <message>
            <source>Updates</source>
            <translation>更新</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings.py" line="1" />
            <source>Installed tools</source>
            <translation>已安装的工具</translation>
        </message>
    </context>
    <context>
        <name>Sidebar</name>
        <message>
            <source>No sessions yet. What you start with New session, and what your automations run, shows here.</source>
            <translation>还没有会话。用“新建会话”开始的工作，以及自动化任务的运行，都会显示在这里。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="71" />
            <location filename="../../openworker_qt/ui/sidebar.py" line="72" />
            <source>New session</source>
            <translation>新建会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="73" />
            <source>Start a new session (Ctrl+N)</source>
            <translation>开始新会话（Ctrl+N）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="75" />
            <source>Search sessions (Ctrl+K)</source>
            <translation>搜索会话（Ctrl+K）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="77" />
            <source>Search sessions</source>
            <translation>搜索会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="78" />
            <source>Filter the session list by title</source>
            <translation>按标题筛选会话列表</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="80" />
            <source>Clear search</source>
            <translation>清除搜索</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="85" />
            <source>Sessions</source>
            <translation>会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="86" />
            <source>Your sessions, newest first</source>
            <translation>你的会话，最新的在前</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="118" />
            <source>Delete…</source>
            <translation>删除…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="168" />
            <location filename="../../openworker_qt/ui/sidebar.py" line="170" />
            <source>Rename session</source>
            <translation>重命名会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="169" />
            <source>Title:</source>
            <translation>标题：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="187" />
            <source>Delete session</source>
            <translation>删除会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="188" />
            <source>Delete this session and its transcript? This cannot be undone.</source>
            <translation>删除这个会话及其记录？此操作无法撤销。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="111" />
            <source>Re&amp;name…</source>
            <translation>重命名(&amp;N)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="129" />
            <source>No sessions match “{text}”</source>
            <translation>没有与“{text}”匹配的会话</translation>
        </message>
        <message>
            <source>Rename…</source>
            <translation>重命名…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Find sessions by their title or by words written in them</source>
            <translation>按标题或会话中的文字查找会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Your sessions by date, newest first</source>
            <translation>你的会话，按日期排列，最新的在前</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>&amp;Pin</source>
            <translation>置顶(&amp;P)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Un&amp;pin</source>
            <translation>取消置顶(&amp;P)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>&amp;Export as Markdown…</source>
            <translation>导出为 Markdown(&amp;E)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Export as Markdown</source>
            <translation>导出为 Markdown</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Markdown (*.md)</source>
            <translation>Markdown (*.md)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Could not export to {path}: {error}</source>
            <translation>无法导出到 {path}：{error}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Delete this session and its transcript?</source>
            <translation>删除此会话及其记录？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>This cannot be undone.</source>
            <translation>此操作无法撤销。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/sidebar.py" line="1" />
            <source>Delete</source>
            <translation>删除</translation>
        </message>
    </context>
    <context>
        <name>RecordingIndicator</name>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="50" />
            <source>Voice recording</source>
            <translation>正在录音</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="53" />
            <source>Listening…</source>
            <translation>正在聆听…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/push_to_talk.py" line="58" />
            <source>Microphone level</source>
            <translation>麦克风音量</translation>
        </message>
        <message>
            <source>Listening… release the key when you are done</source>
            <translation>正在聆听… 说完后松开按键</translation>
        </message>
        <message>
            <source>Transcribing…</source>
            <translation>正在转写…</translation>
        </message>
    </context>
    <context>
        <name>Schedule</name>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="94" />
            <source>Sunday</source>
            <translation>周日</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="95" />
            <source>Monday</source>
            <translation>周一</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="96" />
            <source>Tuesday</source>
            <translation>周二</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="97" />
            <source>Wednesday</source>
            <translation>周三</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="98" />
            <source>Thursday</source>
            <translation>周四</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="99" />
            <source>Friday</source>
            <translation>周五</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="100" />
            <source>Saturday</source>
            <translation>周六</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="111" />
            <source>Once (no time set)</source>
            <translation>仅一次（未设时间）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="113" />
            <source>%a %d %b %Y</source>
            <translation>%Y年%m月%d日</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="114" />
            <source>Once, on {date} at {time} ({tz})</source>
            <translation>仅一次：{date} {time}（{tz}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="124" />
            <source>, </source>
            <translation>、</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="128" />
            <source>Every day at {time}</source>
            <translation>每天 {time}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="130" />
            <source>Every weekday at {time}</source>
            <translation>每个工作日 {time}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="133" />
            <source>Every Saturday and Sunday at {time}</source>
            <translation>每周六和周日 {time}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="138" />
            <source>Every {days} at {time}</source>
            <translation>每{days} {time}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="141" />
            <source>Every minute</source>
            <translation>每分钟</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="143" />
            <source>Every {n} minutes</source>
            <translation>每 {n} 分钟</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="145" />
            <source>Every hour</source>
            <translation>每小时</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="147" />
            <source>Every hour at {m} past</source>
            <translation>每小时的第 {m} 分钟</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="149" />
            <source>Every {n} hours at {m} past</source>
            <translation>每 {n} 小时，在第 {m} 分钟</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="152" />
            <source>Every {n} hours</source>
            <translation>每 {n} 小时</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="154" />
            <source>On day {day} of every month at {time}</source>
            <translation>每月 {day} 日 {time}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="157" />
            <source>On the schedule “{cron}”</source>
            <translation>按计划“{cron}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/automations.py" line="161" />
            <source>{words} ({tz})</source>
            <translation>{words}（{tz}）</translation>
        </message>
    </context>
    <context>
        <name>TodoPanel</name>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="57" />
            <source>Current step</source>
            <translation>当前步骤</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="65" />
            <source>To-do items</source>
            <translation>待办事项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="72" />
            <source>To-do list</source>
            <translation>待办清单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="88" />
            <source>{done} of {total} done</source>
            <translation>已完成 {done}/{total}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="108" />
            <source>Done: {text}</source>
            <translation>已完成：{text}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="115" />
            <source>Current step: {text}</source>
            <translation>当前步骤：{text}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="118" />
            <source>To do: {text}</source>
            <translation>待办：{text}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="129" />
            <source>To-do list · {summary}</source>
            <translation>待办清单 · {summary}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="133" />
            <source>Hide the to-do list</source>
            <translation>收起待办清单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="133" />
            <source>Show the to-do list</source>
            <translation>展开待办清单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/todo_panel.py" line="136" />
            <source>Now: {text}</source>
            <translation>当前：{text}</translation>
        </message>
    </context>
    <context>
        <name>Transcript</name>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="317" />
            <source>Thinking: </source>
            <translation>思考：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="323" />
            <source>Show less</source>
            <translation>收起</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="324" />
            <source>Show all · {n} lines</source>
            <translation>显示全部 · {n} 行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="348" />
            <source>Queued: goes in after the current step</source>
            <translation>已排队：将在当前步骤之后加入</translation>
        </message>
        <message>
            <source>Attached: {names}</source>
            <translation>附件：{names}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="375" />
            <source>(no output)</source>
            <translation>（无输出）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="378" />
            <source>… {n} more lines</source>
            <translation>… 还有 {n} 行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="381" />
            <source>What it was given:</source>
            <translation>调用参数：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="382" />
            <source>What came back:</source>
            <translation>返回结果：</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_delegate.py" line="659" />
            <source>Copy</source>
            <translation>复制</translation>
        </message>
    </context>
    <context>
        <name>TranscriptView</name>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="91" />
            <source>Transcript</source>
            <translation>对话记录</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="92" />
            <source>The conversation: messages, tool cards and approvals</source>
            <translation>对话内容：消息、工具卡片和审批</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="337" />
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="337" />
            <source>Edit and send again</source>
            <translation>编辑后重新发送</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="338" />
            <source>Ask again</source>
            <translation>再问一次</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="338" />
            <source>Copy the code</source>
            <translation>复制代码</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="1" />
            <source>Jump to start</source>
            <translation>跳到开头</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="1" />
            <source>Show the first message of this session (Ctrl+Home)</source>
            <translation>显示此会话的第一条消息（Ctrl+Home）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="1" />
            <source>Show the first message of this session</source>
            <translation>显示此会话的第一条消息</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/transcript_view.py" line="1" />
            <source>Position in the session</source>
            <translation>在会话中的位置</translation>
        </message>
        <message>
            <source>Jump to latest ↓</source>
            <translation>跳到最新 ↓</translation>
        </message>
        <message>
            <source>Show the newest message (Ctrl+End)</source>
            <translation>显示最新消息（Ctrl+End）</translation>
        </message>
        <message>
            <source>Jump to latest</source>
            <translation>跳到最新</translation>
        </message>
        <message>
            <source>Show the newest message</source>
            <translation>显示最新消息</translation>
        </message>
    </context>
    <context>
        <name>Tray</name>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="58" />
            <source>OpenWorker tray menu</source>
            <translation>OpenWorker 托盘菜单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="59" />
            <location filename="../../openworker_qt/ui/tray.py" line="131" />
            <source>Idle</source>
            <translation>空闲</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="62" />
            <source>Quick ask…</source>
            <translation>快速提问…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="64" />
            <source>Open window</source>
            <translation>打开窗口</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="65" />
            <source>Open inbox</source>
            <translation>打开收件箱</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="66" />
            <source>Waiting for you</source>
            <translation>等待你处理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="67" />
            <source>Pending approvals</source>
            <translation>待审批事项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="70" />
            <source>Pause automations</source>
            <translation>暂停自动化</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="74" />
            <source>Quit OpenWorker</source>
            <translation>退出 OpenWorker</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="122" />
            <source>{n} waiting for you</source>
            <translation>{n} 项等待你处理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="128" />
            <source>Working on {n} session(s)</source>
            <translation>正在处理 {n} 个会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="136" />
            <source>Waiting for you ({n})</source>
            <translation>等待你处理（{n}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="141" />
            <source>More in the inbox…</source>
            <translation>收件箱中还有更多…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="150" />
            <source>Approve once</source>
            <translation>批准一次</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="152" />
            <source>Deny</source>
            <translation>拒绝</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="154" />
            <source>Show in inbox…</source>
            <translation>在收件箱中显示…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="125" />
            <source>{a} approval(s), {q} other question(s) in {s} session(s)</source>
            <translation>{s} 个会话中有 {a} 项审批、{q} 个其他问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="74" />
            <source>Automations…</source>
            <translation>自动任务…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="112" />
            <source>Automations… ({n} failed)</source>
            <translation>自动任务…（{n} 个失败）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="1" />
            <source>Working on {n} sessions</source>
            <translation>正在处理 {n} 个会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/tray.py" line="1" />
            <source>Working on one session</source>
            <translation>正在处理 1 个会话</translation>
        </message>
    </context>
    <context>
        <name>UpdateNotice</name>
        <message>
            <source>An update is available</source>
            <translation>有可用的更新</translation>
        </message>
        <message>
            <source>See what is new and where to download it</source>
            <translation>查看新内容和下载位置</translation>
        </message>
        <message>
            <source>Version {version} is available</source>
            <translation>新版本 {version} 已发布</translation>
        </message>
    </context>
    <context>
        <name>UpdatesPage</name>
        <message>
            <source>Updates</source>
            <translation>更新</translation>
        </message>
        <message>
            <source>OpenWorker can tell you when a new version is out. It reads a short notice, signed by the OpenWorker team, from the address below, and checks the signature before believing it. It never downloads or installs anything by itself: you choose whether to open the download page.</source>
            <translation>OpenWorker 可以在新版本发布时告诉你。它从下面的地址读取一条由 OpenWorker 团队签名的简短通知，并先验证签名再采信。它从不自行下载或安装任何东西：是否打开下载页面由你决定。</translation>
        </message>
        <message>
            <source>Update &amp;address</source>
            <translation>更新地址(&amp;A)</translation>
        </message>
        <message>
            <source>Update address</source>
            <translation>更新地址</translation>
        </message>
        <message>
            <source>The web address of the update notice; leave it empty to turn update checks off</source>
            <translation>更新通知的网址；留空则关闭更新检查</translation>
        </message>
        <message>
            <source>&amp;Save</source>
            <translation>保存(&amp;S)</translation>
        </message>
        <message>
            <source>Save update address</source>
            <translation>保存更新地址</translation>
        </message>
        <message>
            <source>Use the address your copy of OpenWorker came with; it starts with https://. Leave it empty to never check.</source>
            <translation>请使用随你这份 OpenWorker 提供的地址，它以 https:// 开头。留空则从不检查。</translation>
        </message>
        <message>
            <source>Check for updates automatically (once a week)</source>
            <translation>自动检查更新（每周一次）</translation>
        </message>
        <message>
            <source>Check for updates automatically</source>
            <translation>自动检查更新</translation>
        </message>
        <message>
            <source>When a newer version exists, a small note appears at the bottom of the main window. Help ▸ Check for updates… looks at any time.</source>
            <translation>有更新的版本时，主窗口底部会出现一条小提示。随时可以通过“帮助 ▸ 检查更新…”查看。</translation>
        </message>
        <message>
            <source>Update address saved.</source>
            <translation>更新地址已保存。</translation>
        </message>
        <message>
            <source>Update address removed: OpenWorker will not check for updates.</source>
            <translation>更新地址已移除：OpenWorker 将不再检查更新。</translation>
        </message>
        <message>
            <source>Automatic checks start once an update address is saved.</source>
            <translation>保存更新地址后才会开始自动检查。</translation>
        </message>
        <message>
            <source>Not saved: the update address must start with https:// (a private, secure connection). Plain http:// is allowed only for this computer, for testing.</source>
            <translation>未保存：更新地址必须以 https:// 开头（私密、安全的连接）。普通的 http:// 只允许用于本机，供测试使用。</translation>
        </message>
        <message>
            <source>Not saved: “{url}” has no server name.</source>
            <translation>未保存：“{url}”没有服务器名称。</translation>
        </message>
        <message>
            <source>Not saved: “{url}” is not a web address. It should look like https://example.com/manifest.json.</source>
            <translation>未保存：“{url}”不是网址。它应该类似于 https://example.com/manifest.json。</translation>
        </message>
        <message>
            <source>This build cannot check for updates: it was made without the release key that update notices are signed with (a development or unofficial build).</source>
            <translation>此版本无法检查更新：它在构建时没有用于签署更新通知的发布密钥（开发版或非官方版本）。</translation>
        </message>
    </context>
    <context>
        <name>VoiceController</name>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="93" />
            <source>Hold to dictate; release to put the words into the message</source>
            <translation>按住说话；松开后文字将放入消息框</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="114" />
            <source>{what} ({shortcut})</source>
            <translation>{what}（{shortcut}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="119" />
            <source>Voice</source>
            <translation>语音</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="119" />
            <source>Listening…</source>
            <translation>正在聆听…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="120" />
            <source>Transcribing…</source>
            <translation>正在转写…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="123" />
            <source>Voice input</source>
            <translation>语音输入</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="124" />
            <source>Voice input: {state}</source>
            <translation>语音输入：{state}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="131" />
            <source>Import model…</source>
            <translation>导入模型…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="148" />
            <source>No microphone found. Connect one (or allow this app to use it in the system's privacy settings), then hold the button again.</source>
            <translation>未找到麦克风。请连接麦克风（或在系统隐私设置中允许本应用使用它），然后再次按住按钮。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="150" />
            <source>No microphone found</source>
            <translation>未找到麦克风</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="164" />
            <source>Hold the button while you speak.</source>
            <translation>说话时请按住按钮。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="177" />
            <source>Voice input failed: {error}</source>
            <translation>语音输入失败：{error}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="182" />
            <source>No speech was recognised.</source>
            <translation>未识别到语音。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="243" />
            <source>Import a speech model</source>
            <translation>导入语音模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="244" />
            <source>whisper.cpp models (*.bin)</source>
            <translation>whisper.cpp 模型 (*.bin)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="252" />
            <source>Importing {name}…</source>
            <translation>正在导入 {name}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice.py" line="258" />
            <source>Speech model {name} is ready. Hold the voice button to dictate.</source>
            <translation>语音模型 {name} 已就绪。按住语音按钮即可听写。</translation>
        </message>
    </context>
    <context>
        <name>WindowsHotkey</name>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="398" />
            <source>This key cannot be used as a global hotkey</source>
            <translation>这个按键不能用作全局快捷键</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="402" />
            <source>Another application already uses this key combination</source>
            <translation>另一个应用已在使用这个组合键</translation>
        </message>
    </context>
    <context>
        <name>Wording</name>
        <message>
            <source>Proposed the team's plan</source>
            <translation>提出了团队计划</translation>
        </message>
        <message>
            <source>Looked at the team board</source>
            <translation>查看了团队看板</translation>
        </message>
        <message>
            <source>Added “{item}” to the board</source>
            <translation>把“{item}”加到了看板</translation>
        </message>
        <message>
            <source>Assigned {item}</source>
            <translation>分配了 {item}</translation>
        </message>
        <message>
            <source>Moved {item} on the board</source>
            <translation>在看板上移动了 {item}</translation>
        </message>
        <message>
            <source>Commented on {item}</source>
            <translation>评论了 {item}</translation>
        </message>
        <message>
            <source>Handed in the result of {item}</source>
            <translation>提交了 {item} 的成果</translation>
        </message>
        <message>
            <source>Linked {item}</source>
            <translation>关联了 {item}</translation>
        </message>
        <message>
            <source>Took {item}</source>
            <translation>领取了 {item}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="380" />
            <source>{provider} started answering · waiting for the first words</source>
            <translation>{provider} 已开始回答 · 正在等待第一段文字</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="387" />
            <source>{provider} is answering</source>
            <translation>{provider} 正在回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="23" />
            <source>not run yet</source>
            <translation>尚未运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="24" />
            <source>waiting for your approval</source>
            <translation>等待你的批准</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="25" />
            <source>waiting for your answer</source>
            <translation>等待你的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="26" />
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="27" />
            <source>done</source>
            <translation>已完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="28" />
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="29" />
            <source>denied</source>
            <translation>已拒绝</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="30" />
            <source>interrupted</source>
            <translation>已中断</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="46" />
            <source>Allowed: it only reads</source>
            <translation>已允许：它只读取内容</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="48" />
            <source>Allowed: this session runs in auto mode</source>
            <translation>已允许：此会话处于自动模式</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="50" />
            <source>Allowed: you approved this exact command for this session</source>
            <translation>已允许：你已在此会话中批准过这条命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="54" />
            <source>Allowed: {tool} is on your list of tools that run without asking</source>
            <translation>已允许：{tool} 在你的免询问工具列表中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="58" />
            <source>Allowed: a safe command on your list ({entry})</source>
            <translation>已允许：你的安全命令列表中的命令（{entry}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="63" />
            <source>You approved it once</source>
            <translation>你批准了这一次</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="65" />
            <source>You approved it, and allowed it from now on</source>
            <translation>你已批准，并允许以后直接运行</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="69" />
            <source>You approved this command for this session</source>
            <translation>你已在此会话中批准这条命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="72" />
            <source>You approved it</source>
            <translation>你已批准</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="75" />
            <source>Allowed by your rule for {target}</source>
            <translation>已按你针对 {target} 的规则允许</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="80" />
            <source>Allowed by your settings</source>
            <translation>已按你的设置允许</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="86" />
            <source>Reads</source>
            <translation>读取内容</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="87" />
            <source>Changes files on this computer</source>
            <translation>修改这台电脑上的文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="88" />
            <source>Runs a program</source>
            <translation>运行程序</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="89" />
            <source>Sends data off this computer</source>
            <translation>将数据发送到这台电脑之外</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="97" />
            <source>Approval</source>
            <translation>批准请求</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="98" />
            <source>Question</source>
            <translation>问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="99" />
            <source>Plan to review</source>
            <translation>待审阅的计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="100" />
            <source>Folder request</source>
            <translation>文件夹请求</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="110" />
            <source>busy</source>
            <translation>服务繁忙</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="111" />
            <source>too many requests</source>
            <translation>请求过多</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="112" />
            <source>server error</source>
            <translation>服务器错误</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="113" />
            <source>connection problem</source>
            <translation>连接问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="114" />
            <source>no answer in time</source>
            <translation>未及时响应</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="118" />
            <source>Waiting for {provider} · retrying {attempt}/{total} in {secs} s ({why})</source>
            <translation>正在等待 {provider} · {secs} 秒后第 {attempt}/{total} 次重试（{why}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="123" />
            <source>Waiting for {provider} · retrying {attempt}/{total} ({why})</source>
            <translation>正在等待 {provider} · 第 {attempt}/{total} 次重试（{why}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="152" />
            <source>The task paused here to wait for your answer.</source>
            <translation>任务在此暂停，等待你的回答。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="161" />
            <source>this folder</source>
            <translation>此文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="200" />
            <location filename="../../openworker_qt/qt/wording.py" line="355" />
            <source>Reading {file}…</source>
            <translation>正在读取 {file}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="201" />
            <source>Read {file}</source>
            <translation>读取了 {file}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="205" />
            <source>Wrote {file} (+{n} lines)</source>
            <translation>写入了 {file}（+{n} 行）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="206" />
            <source>Write {file} ({n} lines)</source>
            <translation>写入 {file}（{n} 行）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="210" />
            <source>Edited {file} ({delta})</source>
            <translation>修改了 {file}（{delta}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="211" />
            <source>Edit {file} ({delta})</source>
            <translation>修改 {file}（{delta}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="213" />
            <source>Applied a patch</source>
            <translation>应用了补丁</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="213" />
            <source>Apply a patch</source>
            <translation>应用补丁</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="216" />
            <source>Created {file}</source>
            <translation>创建了 {file}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="217" />
            <source>Create {file}</source>
            <translation>创建 {file}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="219" />
            <source>Listed {folder}</source>
            <translation>列出了 {folder}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="221" />
            <source>Searched files for “{pattern}”</source>
            <translation>在文件中搜索了“{pattern}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="223" />
            <source>Searched the web for “{query}”</source>
            <translation>在网上搜索了“{query}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="227" />
            <source>Opened {site}</source>
            <translation>打开了 {site}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="231" />
            <source>Running “{command}”…</source>
            <translation>正在运行“{command}”…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="233" />
            <source>Run “{command}”</source>
            <translation>运行“{command}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="234" />
            <source>Ran “{command}”</source>
            <translation>运行了“{command}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="237" />
            <source>exit {code}</source>
            <translation>退出码 {code}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="239" />
            <source>{secs} s</source>
            <translation>{secs} 秒</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="242" />
            <source>Checked a background command</source>
            <translation>查看了后台命令</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="244" />
            <source>git {what}</source>
            <translation>git {what}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="246" />
            <source>Asked you: {question}</source>
            <translation>问你：{question}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="248" />
            <source>Proposed a plan</source>
            <translation>提出了计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="250" />
            <source>Asked for access to {folder}</source>
            <translation>请求访问 {folder}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="252" />
            <source>Updated the to-do list</source>
            <translation>更新了待办清单</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="254" />
            <source>Remembered something</source>
            <translation>记住了一件事</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="256" />
            <source>Looked at what it remembers</source>
            <translation>查看了记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="258" />
            <source>Explored: {task}</source>
            <translation>探索：{task}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="283" />
            <source>Write {file} in {folder}/?</source>
            <translation>在 {folder}/ 中写入 {file}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="284" />
            <source>Write {file}?</source>
            <translation>写入 {file}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="286" />
            <source>Change {file}?</source>
            <translation>修改 {file}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="288" />
            <source>Apply these changes to your files?</source>
            <translation>将这些更改应用到你的文件？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="290" />
            <source>Run “{command}”?</source>
            <translation>运行“{command}”？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="292" />
            <source>Commit these changes?</source>
            <translation>提交这些更改？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="294" />
            <source>Run git {what}?</source>
            <translation>运行 git {what}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="296" />
            <source>Open {url}?</source>
            <translation>打开 {url}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="297" />
            <source>Follow the redirect from {source} to {url}?</source>
            <translation>要从 {source} 跟随重定向到 {url} 吗？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="298" />
            <source>Search the web for “{query}”?</source>
            <translation>在网上搜索“{query}”？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="300" />
            <source>Send a message to {target}?</source>
            <translation>向 {target} 发送消息？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="302" />
            <source>{action} on {target}?</source>
            <translation>在 {target} 上执行“{action}”？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="303" />
            <source>{action}?</source>
            <translation>执行“{action}”？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="309" />
            <source>nothing changes.</source>
            <translation>不会改变任何东西。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="310" />
            <source>what the file holds now is replaced.</source>
            <translation>文件现有的内容会被替换。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="312" />
            <source>a program can do anything you can.</source>
            <translation>程序能做你能做的任何事。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="314" />
            <source>once sent, it cannot be taken back.</source>
            <translation>一旦发出就无法撤回。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="317" />
            <source>{risk}: {why}</source>
            <translation>{risk}：{why}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="336" />
            <source>the model</source>
            <translation>模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="341" />
            <source>Waiting for {provider}</source>
            <translation>正在等待 {provider}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="351" />
            <source>Running {program}…</source>
            <translation>正在运行 {program}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="352" />
            <source>Running a command…</source>
            <translation>正在运行命令…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="356" />
            <source>Writing {file}…</source>
            <translation>正在写入 {file}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="357" />
            <source>Creating {file}…</source>
            <translation>正在创建 {file}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="358" />
            <source>Editing {file}…</source>
            <translation>正在修改 {file}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="359" />
            <source>Editing files…</source>
            <translation>正在修改文件…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="360" />
            <source>Looking through {folder}…</source>
            <translation>正在查看 {folder}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="361" />
            <location filename="../../openworker_qt/qt/wording.py" line="362" />
            <source>Searching files…</source>
            <translation>正在搜索文件…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="363" />
            <source>Searching the web…</source>
            <translation>正在网上搜索…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="364" />
            <source>Reading a web page…</source>
            <translation>正在阅读网页…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="368" />
            <source>Using {tool}…</source>
            <translation>正在使用 {tool}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="379" />
            <source>It writes {paths}</source>
            <translation>它会写入 {paths}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="381" />
            <source>It runs a program</source>
            <translation>它会运行一个程序</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="385" />
            <source>It acts outside this computer: {where}</source>
            <translation>它会在这台电脑之外操作：{where}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="387" />
            <source>It acts outside this computer</source>
            <translation>它会在这台电脑之外操作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="391" />
            <source>This command is not on your list of commands that run without asking</source>
            <translation>此命令不在你的免询问命令列表中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Allowed: your own notes</source>
            <translation>已允许：你自己的笔记</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Saved to memory</source>
            <translation>已存入记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Save to memory</source>
            <translation>存入记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Updated a memory</source>
            <translation>已更新一条记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Update a memory</source>
            <translation>更新一条记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Forgot a memory</source>
            <translation>已忘记一条记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Forget a memory</source>
            <translation>忘记一条记忆</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Saving to memory…</source>
            <translation>正在存入记忆…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Updating a memory…</source>
            <translation>正在更新记忆…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Forgetting a memory…</source>
            <translation>正在忘记一条记忆…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" />
            <source>Reading its notes…</source>
            <translation>正在查看它的笔记…</translation>
        </message>
        <message>
            <source>Just talk</source>
            <translation>只聊天</translation>
        </message>
        <message>
            <source>Plan first</source>
            <translation>先出计划</translation>
        </message>
        <message>
            <source>Ask before changes</source>
            <translation>改动前先问</translation>
        </message>
        <message>
            <source>Work on its own</source>
            <translation>自主工作</translation>
        </message>
        <message>
            <source>My rules</source>
            <translation>我的规则</translation>
        </message>
        <message>
            <source>Talks only: no tool that changes anything</source>
            <translation>只交谈：不使用任何会做出改动的工具</translation>
        </message>
        <message>
            <source>Reads, then proposes a plan; changes wait until you approve it</source>
            <translation>先阅读，再提出计划；改动要等你批准计划后进行</translation>
        </message>
        <message>
            <source>Asks you before every change</source>
            <translation>每次改动前都先问你</translation>
        </message>
        <message>
            <source>Changes files in its writable folders without asking; asks for the rest</source>
            <translation>在可写文件夹内直接修改文件；其他操作先问你</translation>
        </message>
        <message>
            <source>Follows your standing rules; asks for the rest</source>
            <translation>按你的长期规则办事；其他操作先问你</translation>
        </message>
        <message>
            <source>Couldn't open {site}</source>
            <translation>无法打开 {site}</translation>
        </message>
        <message>
            <source>Couldn't read {file}</source>
            <translation>无法读取 {file}</translation>
        </message>
        <message>
            <source>Couldn't write {file}</source>
            <translation>无法写入 {file}</translation>
        </message>
        <message>
            <source>Couldn't edit {file}</source>
            <translation>无法编辑 {file}</translation>
        </message>
        <message>
            <source>Couldn't apply the patch</source>
            <translation>无法应用补丁</translation>
        </message>
        <message>
            <source>Couldn't create {file}</source>
            <translation>无法创建 {file}</translation>
        </message>
        <message>
            <source>Couldn't list {folder}</source>
            <translation>无法列出 {folder}</translation>
        </message>
        <message>
            <source>Couldn't search the web for “{query}”</source>
            <translation>无法在网上搜索“{query}”</translation>
        </message>
        <message>
            <source>Create {file} in {folder}/?</source>
            <translation>在 {folder}/ 中创建 {file}？</translation>
        </message>
        <message>
            <source>Create {file}?</source>
            <translation>创建 {file}？</translation>
        </message>
        <message>
            <source>{risk}: a new file is created.</source>
            <translation>{risk}：将新建一个文件。</translation>
        </message>
        <message>
            <source>yes</source>
            <translation>是</translation>
        </message>
        <message>
            <source>no</source>
            <translation>否</translation>
        </message>
        <message>
            <source>Custom server</source>
            <translation>自定义服务器</translation>
        </message>
        <message>
            <source>Allowed: you allowed “{prefix}” commands for this session</source>
            <translation>已允许：你在此会话中允许了“{prefix}”命令</translation>
        </message>
        <message>
            <source>Allowed: you allowed changes in {folder} for this session</source>
            <translation>已允许：你在此会话中允许修改 {folder}</translation>
        </message>
        <message>
            <source>You approved it, and allowed commands like it for this session</source>
            <translation>你批准了它，并在此会话中允许同类命令</translation>
        </message>
        <message>
            <source>You approved it, and allowed changes in its folder for this session</source>
            <translation>你批准了它，并在此会话中允许修改它所在的文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="1" />
            <source>Install {package}?</source>
            <translation>安装 {package}？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/wording.py" line="1" />
            <source>Installs {package} in OpenWorker's own tools folder: not system-wide, no administrator rights. You can remove it any time in Settings › Installed tools.</source>
            <translation>将 {package} 安装到 OpenWorker 自己的工具文件夹：不安装到整个系统，也不需要管理员权限。你随时可以在“设置 › 已安装的工具”中移除它。</translation>
        </message>
    </context>
    <context>
        <name>UpdatePrompt</name>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="46" />
            <source>Updates are not set up</source>
            <translation>尚未设置更新</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="55" />
            <source>Could not check for updates</source>
            <translation>无法检查更新</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="58" />
            <source>OpenWorker is up to date</source>
            <translation>OpenWorker 已是最新版本</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="59" />
            <source>You have version {version}, the latest.</source>
            <translation>你使用的是最新版本 {version}。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="63" />
            <source>No release notes were given.</source>
            <translation>没有提供发布说明。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="64" />
            <source>Version {new} is available (you have {current}).</source>
            <translation>有新版本 {new} 可用（你当前的版本是 {current}）。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="67" />
            <source>There is no download for this system yet.</source>
            <translation>暂时还没有适用于此系统的下载。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="68" />
            <source>An update is available</source>
            <translation>有可用的更新</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="72" />
            <source>Open download page</source>
            <translation>打开下载页面</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="75" />
            <source>The download's SHA-256 checksum: {digest}</source>
            <translation>下载文件的 SHA-256 校验和：{digest}</translation>
        </message>
        <message>
            <source>No update address is set. Add one in Settings ▸ Updates to check for new versions.</source>
            <translation>尚未设置更新地址。请在“设置 ▸ 更新”中添加一个地址，以检查新版本。</translation>
        </message>
        <message>
            <source>This build cannot check for updates</source>
            <translation>此版本无法检查更新</translation>
        </message>
        <message>
            <source>This copy of OpenWorker was built without the release key that update notices are signed with (a development or unofficial build), so it cannot check for new versions. Get new versions from wherever this copy came from.</source>
            <translation>这份 OpenWorker 在构建时没有用于签署更新通知的发布密钥（开发版或非官方版本），因此无法检查新版本。请从你获得这份程序的地方获取新版本。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/updates.py" line="47" />
            <source>No update address is set. Add one under “updates.url” in the settings file to check for new versions.</source>
            <translation>尚未设置更新地址。请在设置文件的“updates.url”中添加一个地址，以检查新版本。</translation>
        </message>
    </context>
    <context>
        <name>UpgradeWindow</name>
        <message>
            <location filename="../../openworker_qt/ui/upgrade_window.py" line="40" />
            <source>Updating your sessions for this version…</source>
            <translation>正在为此版本更新你的会话…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/upgrade_window.py" line="42" />
            <source>This happens once after an update; with many sessions it can take a minute.</source>
            <translation>更新后只需进行一次；会话很多时可能需要一分钟左右。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/upgrade_window.py" line="48" />
            <source>Updating your sessions</source>
            <translation>正在更新你的会话</translation>
        </message>
    </context>
    <context>
        <name>WorkspaceDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/folders.py" line="24" />
            <source>Enter a folder.</source>
            <translation>请输入文件夹。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/folders.py" line="27" />
            <source>Enter a full path (for example {example}).</source>
            <translation>请输入完整路径（例如 {example}）。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/folders.py" line="30" />
            <source>{path} is a file, not a folder.</source>
            <translation>{path} 是文件，不是文件夹。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/folders.py" line="35" />
            <source>{path} could not be created: {reason}</source>
            <translation>无法创建 {path}：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="90" />
            <location filename="../../openworker_qt/ui/workspace.py" line="152" />
            <source>Choose your workspace folder</source>
            <translation>选择工作区文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="91" />
            <source>Default folder for new sessions</source>
            <translation>新会话的默认文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="96" />
            <source>Where should OpenWorker keep your files?</source>
            <translation>OpenWorker 应该把你的文件放在哪里？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="101" />
            <source>Sessions read and create files in a workspace folder; outside it the agent asks first. New sessions start in this folder, and each session can move to another one (Session → Change folder…).</source>
            <translation>会话在工作区文件夹中读取和创建文件；在此文件夹之外，助手会先询问。新会话从此文件夹开始，每个会话都可以换到其他文件夹（会话 → 更改文件夹…）。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="110" />
            <source>Workspace folder</source>
            <translation>工作区文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="111" />
            <source>Created if it does not exist yet</source>
            <translation>如果尚不存在，将自动创建</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="112" />
            <source>&amp;Folder</source>
            <translation>文件夹(&amp;F)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="114" />
            <source>C&amp;hoose…</source>
            <translation>选择(&amp;H)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="115" />
            <source>Pick the folder in a file dialog</source>
            <translation>在文件对话框中选择文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="116" />
            <source>Choose a folder</source>
            <translation>选择文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="124" />
            <source>Problem</source>
            <translation>问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="129" />
            <source>&amp;Not now</source>
            <translation>以后再说(&amp;N)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="129" />
            <location filename="../../openworker_qt/ui/workspace.py" line="130" />
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="130" />
            <source>Not now</source>
            <translation>以后再说</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="132" />
            <source>Ask again next time; this time the default folder is used</source>
            <translation>下次启动时再询问；这次使用默认文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="133" />
            <source>&amp;Use this folder</source>
            <translation>使用此文件夹(&amp;U)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="134" />
            <source>Use this folder</source>
            <translation>使用此文件夹</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/workspace.py" line="135" />
            <source>Create the folder if needed and remember it</source>
            <translation>如有需要则创建此文件夹，并记住它</translation>
        </message>
    </context>
    <context>
        <name>VoiceAnswers</name>
        <message>
            <location filename="../../openworker_qt/ui/voice_answers.py" line="50" />
            <source>You said “{text}”. Approve {tool} once?</source>
            <translation>你说的是“{text}”。批准 {tool} 这一次？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/voice_answers.py" line="54" />
            <source>You said “{text}”. Deny {tool}?</source>
            <translation>你说的是“{text}”。拒绝 {tool}？</translation>
        </message>
        <message>
            <source>Answer by voice</source>
            <translation>语音回答</translation>
        </message>
        <message>
            <source>Approve</source>
            <translation>批准</translation>
        </message>
        <message>
            <source>Deny</source>
            <translation>拒绝</translation>
        </message>
    </context>
    <context>
        <name>X11Hotkey</name>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="253" />
            <source>Cannot connect to the X display for the global hotkey</source>
            <translation>无法连接到 X 显示服务以设置全局快捷键</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="271" />
            <source>This keyboard has no key for {key}</source>
            <translation>此键盘上没有 {key} 键</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/hotkey.py" line="282" />
            <source>Another application already uses this key combination</source>
            <translation>另一个应用已在使用这个组合键</translation>
        </message>
    </context>
    <context>
        <name>VoicePage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="97" />
            <source>Installed speech models</source>
            <translation>已安装的语音模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="103" />
            <source>Delete the selected speech model</source>
            <translation>删除所选的语音模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="107" />
            <source>Copy a whisper.cpp model file you have</source>
            <translation>复制你已有的 whisper.cpp 模型文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="116" />
            <source>Model size to download</source>
            <translation>要下载的模型大小</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="119" />
            <source>{name} — {mib} MB, {language}</source>
            <translation>{name} — {mib} MB，{language}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="139" />
            <source>Download progress</source>
            <translation>下载进度</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="149" />
            <source>Push-to-talk key</source>
            <translation>按住说话快捷键</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="153" />
            <source>Where spoken words go</source>
            <translation>语音转成的文字发送到哪里</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="185" />
            <source> (in use)</source>
            <translation>（使用中）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="205" />
            <source>No microphone found. Connect one (or allow this app to use it in the system's privacy settings) to use voice input.</source>
            <translation>未找到麦克风。请连接一个麦克风（或在系统的隐私设置中允许本应用使用它）以使用语音输入。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="257" />
            <source>Downloading… {done} of {total} MB</source>
            <translation>正在下载… {done} / {total} MB</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="263" />
            <source>Import a speech model</source>
            <translation>导入语音模型</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="264" />
            <source>whisper.cpp models (*.bin)</source>
            <translation>whisper.cpp 模型 (*.bin)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="288" />
            <source>Could not delete {name}: {error}</source>
            <translation>无法删除 {name}：{error}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_voice.py" line="291" />
            <source>Deleted {name}.</source>
            <translation>已删除 {name}。</translation>
        </message>
        <message>
            <source>No speech model is installed, so voice input cannot transcribe. Download one here, or import a whisper.cpp model file (such as ggml-base.en.bin) with “Import model…”, or copy it into {folder}.</source>
            <translation>尚未安装语音模型，语音输入无法转写。请在这里下载一个，或通过“导入模型…”导入 whisper.cpp 模型文件（例如 ggml-base.en.bin），也可以将其复制到 {folder}。</translation>
        </message>
        <message>
            <source>Voice</source>
            <translation>语音</translation>
        </message>
        <message>
            <source>Speech is turned into text on this computer by a speech model. Download one here or import a model file you already have.</source>
            <translation>语音由本机上的语音模型转换为文字。可在此下载模型，或导入已有的模型文件。</translation>
        </message>
        <message>
            <source>Model in use: {name}</source>
            <translation>正在使用的模型：{name}</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
        <message>
            <source>Delete model</source>
            <translation>删除模型</translation>
        </message>
        <message>
            <source>Import model…</source>
            <translation>导入模型…</translation>
        </message>
        <message>
            <source>Import model</source>
            <translation>导入模型</translation>
        </message>
        <message>
            <source>Download</source>
            <translation>下载</translation>
        </message>
        <message>
            <source>Download model</source>
            <translation>下载模型</translation>
        </message>
        <message>
            <source>Stop</source>
            <translation>停止</translation>
        </message>
        <message>
            <source>Stop download</source>
            <translation>停止下载</translation>
        </message>
        <message>
            <source>Download a model:</source>
            <translation>下载模型：</translation>
        </message>
        <message>
            <source>Push-to-talk key (hold):</source>
            <translation>按住说话快捷键：</translation>
        </message>
        <message>
            <source>Spoken words go to:</source>
            <translation>语音文字发送到：</translation>
        </message>
        <message>
            <source>Quick ask</source>
            <translation>快速提问</translation>
        </message>
        <message>
            <source>The open session's message box</source>
            <translation>当前会话的输入框</translation>
        </message>
        <message>
            <source>Send at once (otherwise left for you to review)</source>
            <translation>立即发送（否则留待您检查）</translation>
        </message>
        <message>
            <source>Send spoken words at once</source>
            <translation>立即发送语音文字</translation>
        </message>
        <message>
            <source>English only</source>
            <translation>仅英语</translation>
        </message>
        <message>
            <source>many languages</source>
            <translation>多语言</translation>
        </message>
        <message>
            <source>Downloading {name}…</source>
            <translation>正在下载 {name}…</translation>
        </message>
        <message>
            <source>Speech model {name} is ready.</source>
            <translation>语音模型 {name} 已就绪。</translation>
        </message>
        <message>
            <source>Download stopped. Press Download again to resume.</source>
            <translation>下载已停止。再次点击“下载”可继续。</translation>
        </message>
    </context>
    <context>
        <name>MemoryPage</name>
        <message>
            <source>Memory</source>
            <translation>记忆</translation>
        </message>
        <message>
            <source>Facts the assistant saved to remember across sessions: your preferences and corrections, context it cannot find in your files. Global facts apply everywhere, the others to one folder only. Double-click a fact to correct it.</source>
            <translation>助手为跨会话记住而保存的事实：你的偏好和纠正，以及它无法从你的文件中找到的背景。全局事实适用于所有地方，其他事实只适用于一个文件夹。双击某条事实即可更正。</translation>
        </message>
        <message>
            <source>&amp;Save new memories</source>
            <translation>保存新记忆(&amp;S)</translation>
        </message>
        <message>
            <source>Save new memories</source>
            <translation>保存新记忆</translation>
        </message>
        <message>
            <source>When off, the assistant still reads the facts below but saves, changes or deletes none</source>
            <translation>关闭后，助手仍会读取下面的事实，但不会保存、修改或删除任何事实</translation>
        </message>
        <message>
            <source>Fact</source>
            <translation>事实</translation>
        </message>
        <message>
            <source>Applies to</source>
            <translation>适用范围</translation>
        </message>
        <message>
            <source>Saved</source>
            <translation>保存时间</translation>
        </message>
        <message>
            <source>From session</source>
            <translation>来源会话</translation>
        </message>
        <message>
            <source>Saved memories</source>
            <translation>已保存的记忆</translation>
        </message>
        <message>
            <source>One row per fact: the fact, where it applies, when and in which session it was saved. F2 edits the fact, Delete removes the selected facts.</source>
            <translation>每行一条事实：事实内容、适用范围、保存时间和来源会话。按 F2 编辑事实，按 Delete 删除所选事实。</translation>
        </message>
        <message>
            <source>Memory status</source>
            <translation>记忆状态</translation>
        </message>
        <message>
            <source>&amp;Delete</source>
            <translation>删除(&amp;D)</translation>
        </message>
        <message>
            <source>Delete selected memories</source>
            <translation>删除所选记忆</translation>
        </message>
        <message>
            <source>&amp;Reload</source>
            <translation>重新加载(&amp;R)</translation>
        </message>
        <message>
            <source>Reload memories</source>
            <translation>重新加载记忆</translation>
        </message>
        <message>
            <source>Not saved: {reason}</source>
            <translation>未保存：{reason}</translation>
        </message>
        <message>
            <source>The memories could not be read or saved; see the log for details.</source>
            <translation>无法读取或保存记忆；详情请查看日志。</translation>
        </message>
        <message>
            <source>Nothing saved yet.</source>
            <translation>尚未保存任何内容。</translation>
        </message>
        <message>
            <source>Everywhere</source>
            <translation>所有地方</translation>
        </message>
        <message>
            <source>Every folder</source>
            <translation>所有文件夹</translation>
        </message>
        <message>
            <source>Changed {date}</source>
            <translation>修改于 {date}</translation>
        </message>
        <message>
            <source>Unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>Session {id}</source>
            <translation>会话 {id}</translation>
        </message>
        <message>
            <source>New memories are saved.</source>
            <translation>新记忆会被保存。</translation>
        </message>
        <message>
            <source>Saving is off: the assistant reads these facts but saves no new ones.</source>
            <translation>保存已关闭：助手会读取这些事实，但不会保存新的事实。</translation>
        </message>
        <message numerus="yes">
            <source>%n saved fact(s)</source>
            <translation>
                <numerusform>已保存 %n 条事实</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>UsageLabel</name>
        <message>
            <source>Tokens and cost</source>
            <translation>令牌与费用</translation>
        </message>
        <message>
            <source>{tokens} tokens</source>
            <translation>{tokens} 个令牌</translation>
        </message>
        <message>
            <source>Last turn: {usage}</source>
            <translation>上一轮：{usage}</translation>
        </message>
        <message>
            <source>This session: {usage}</source>
            <translation>本会话：{usage}</translation>
        </message>
        <message>
            <source>Costs are estimates from list prices; edit them under [prices] in the settings file.</source>
            <translation>费用按公开价格估算；可在设置文件的 [prices] 中修改。</translation>
        </message>
    </context>
    <context>
        <name>SessionListModel</name>
        <message>
            <source>new result</source>
            <translation>有新结果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>New session</source>
            <translation>新会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>{n} waiting for you</source>
            <translation>{n} 项等待你处理</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>unattended</source>
            <translation>无人值守</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>Pinned</source>
            <translation>已置顶</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>Today</source>
            <translation>今天</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>Yesterday</source>
            <translation>昨天</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>Previous 7 days</source>
            <translation>过去 7 天</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>Older</source>
            <translation>更早</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>pinned</source>
            <translation>已置顶</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/session_model.py" line="1" />
            <source>found in: {text}</source>
            <translation>匹配：{text}</translation>
        </message>
    </context>
    <context>
        <name>ConnectorsPage</name>
        <message>
            <source>Connectors</source>
            <translation>连接器</translation>
        </message>
        <message>
            <source>Connect the services you work in. OpenWorker reads from them freely and asks you before it posts, sends or changes anything. Tokens are kept in your system keyring.</source>
            <translation>连接你工作中使用的服务。OpenWorker 可以随时读取它们，但在发布、发送或更改任何内容之前都会先询问你。令牌保存在系统密钥环中。</translation>
        </message>
        <message>
            <source>Each connector and whether it is connected</source>
            <translation>每个连接器及其连接状态</translation>
        </message>
        <message>
            <source>Connection state</source>
            <translation>连接状态</translation>
        </message>
        <message>
            <source>&amp;Connect</source>
            <translation>连接(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Test</source>
            <translation>测试(&amp;T)</translation>
        </message>
        <message>
            <source>Test connection</source>
            <translation>测试连接</translation>
        </message>
        <message>
            <source>Check the stored credentials again</source>
            <translation>再次检查已保存的凭据</translation>
        </message>
        <message>
            <source>&amp;Disconnect</source>
            <translation>断开(&amp;D)</translation>
        </message>
        <message>
            <source>Disconnect</source>
            <translation>断开连接</translation>
        </message>
        <message>
            <source>Forget this connector's credentials</source>
            <translation>删除此连接器的凭据</translation>
        </message>
        <message>
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <source>connected</source>
            <translation>已连接</translation>
        </message>
        <message>
            <source>needs attention</source>
            <translation>需要处理</translation>
        </message>
        <message>
            <source>not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <source>Stored in the keyring — leave empty to keep</source>
            <translation>已保存在密钥环中 — 留空则保留</translation>
        </message>
        <message>
            <source>{label} (optional)</source>
            <translation>{label}（可选）</translation>
        </message>
        <message>
            <source>Re&amp;connect</source>
            <translation>重新连接(&amp;C)</translation>
        </message>
        <message>
            <source>Connect {name}</source>
            <translation>连接 {name}</translation>
        </message>
        <message>
            <source>✓ Connected</source>
            <translation>✓ 已连接</translation>
        </message>
        <message>
            <source>Needs attention: {error}</source>
            <translation>需要处理：{error}</translation>
        </message>
        <message>
            <source>Not connected</source>
            <translation>未连接</translation>
        </message>
        <message>
            <source>Something went wrong: {error}</source>
            <translation>出错了：{error}</translation>
        </message>
        <message>
            <source>Checking with {name}…</source>
            <translation>正在向 {name} 核实…</translation>
        </message>
        <message>
            <source>{name} disconnected.</source>
            <translation>已断开 {name}。</translation>
        </message>
        <message>
            <source>Sign in</source>
            <translation>登录</translation>
        </message>
        <message>
            <source>Sign in with {service}</source>
            <translation>使用 {service} 登录</translation>
        </message>
        <message>
            <source>Opens your browser to sign in; needs your OAuth client id</source>
            <translation>打开浏览器登录；需要你的 OAuth 客户端 ID</translation>
        </message>
        <message>
            <source>Finish signing in with {service} in your browser…</source>
            <translation>请在浏览器中完成 {service} 登录…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_connectors.py" line="56" />
            <source>Connected as {user} in {workspace}</source>
            <translation>已连接：{workspace} 中的 {user}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_connectors.py" line="58" />
            <source>Connected as {user}</source>
            <translation>已连接：{user}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_connectors.py" line="303" />
            <source>{identity}. {then}</source>
            <translation>{identity}。{then}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_connectors.py" line="61" />
            <source>Browse the &amp;catalogue…</source>
            <translation>浏览目录(&amp;C)…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_connectors.py" line="62" />
            <source>Browse the connector catalogue</source>
            <translation>浏览连接器目录</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_connectors.py" line="64" />
            <source>Every connector with what it reads and does, searchable</source>
            <translation>所有连接器及其读取和执行的内容，可搜索</translation>
        </message>
    </context>
    <context>
        <name>SchedulePreset</name>
        <message>
            <source>Every weekday at 9:00</source>
            <translation>每个工作日 9:00</translation>
        </message>
        <message>
            <source>Every day at 8:00</source>
            <translation>每天 8:00</translation>
        </message>
        <message>
            <source>Every Monday at 9:00</source>
            <translation>每周一 9:00</translation>
        </message>
        <message>
            <source>Every Friday at 17:00</source>
            <translation>每周五 17:00</translation>
        </message>
        <message>
            <source>Every hour</source>
            <translation>每小时</translation>
        </message>
        <message>
            <source>Every 15 minutes</source>
            <translation>每 15 分钟</translation>
        </message>
        <message>
            <source>On the 1st of every month at 9:00</source>
            <translation>每月1日 9:00</translation>
        </message>
    </context>
    <context>
        <name>InboxListModel</name>
        <message>
            <source>{label}: {title}</source>
            <translation>{label}：{title}</translation>
        </message>
        <message>
            <source>Question</source>
            <translation>问题</translation>
        </message>
        <message>
            <source>Plan</source>
            <translation>计划</translation>
        </message>
        <message>
            <source>Folder access</source>
            <translation>文件夹访问</translation>
        </message>
        <message>
            <source>Notice</source>
            <translation>通知</translation>
        </message>
    </context>
    <context>
        <name>FileIntake</name>
        <message>
            <source>{model} cannot see images: it will be told only that {name} is attached. Choose a model that can see images to have it looked at.</source>
            <translation>{model} 无法查看图片：它只会知道附加了 {name}。如需查看图片，请选择能识别图片的模型。</translation>
        </message>
        <message>
            <source>This model</source>
            <translation>此模型</translation>
        </message>
        <message>
            <source>Only local files and folders can be dropped here.</source>
            <translation>这里只能拖放本地文件和文件夹。</translation>
        </message>
    </context>
    <context>
        <name>FolderButton</name>
        <message>
            <source>Session folder</source>
            <translation>会话文件夹</translation>
        </message>
        <message>
            <source>Change &amp;folder…</source>
            <translation>更改文件夹(&amp;F)…</translation>
        </message>
        <message>
            <source>&amp;Open in file manager</source>
            <translation>在文件管理器中打开(&amp;O)</translation>
        </message>
        <message>
            <source>Folder: {name}</source>
            <translation>文件夹：{name}</translation>
        </message>
        <message>
            <source>This session works in {folder}</source>
            <translation>此会话在 {folder} 中工作</translation>
        </message>
        <message>
            <source>Folder for this session</source>
            <translation>此会话的文件夹</translation>
        </message>
        <message>
            <source>{folder} is not a folder.</source>
            <translation>{folder} 不是文件夹。</translation>
        </message>
        <message>
            <source>The folder can change once the current turn has ended.</source>
            <translation>当前轮次结束后才能更改文件夹。</translation>
        </message>
        <message>
            <source>now in {name}/</source>
            <translation>现在位于 {name}/</translation>
        </message>
        <message>
            <source>This session now works in {folder}</source>
            <translation>此会话现在在 {folder} 中工作</translation>
        </message>
        <message>
            <source>Use it anyway</source>
            <translation>仍然使用</translation>
        </message>
    </context>
    <context>
        <name>Outbox</name>
        <message>
            <source>Your message was not sent: another OpenWorker window or process is working on this session. It is back in the message box; send it again when that turn has ended, or stop it there.</source>
            <translation>你的消息未发送：另一个 OpenWorker 窗口或进程正在处理此会话。消息已放回输入框；请在那一轮结束后重新发送，或在那里停止它。</translation>
        </message>
        <message>
            <source>Your message was not sent: the turn ended first. It is back in the message box.</source>
            <translation>你的消息未发送：本轮任务已先结束。消息已放回输入框。</translation>
        </message>
    </context>
    <context>
        <name>StatusLine</name>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Waiting for {provider} · retrying</source>
            <translation>正在等待 {provider} · 重试中</translation>
        </message>
        <message>
            <source>Waiting for your approval</source>
            <translation>等待你的批准</translation>
        </message>
        <message>
            <source>Waiting for your answer</source>
            <translation>等待你的回答</translation>
        </message>
        <message>
            <source>Working</source>
            <translation>工作中</translation>
        </message>
        <message>
            <source>{detail} · {secs} s</source>
            <translation>{detail} · {secs} 秒</translation>
        </message>
        <message>
            <source>Another session is working</source>
            <translation>另一个会话正在工作</translation>
        </message>
        <message>
            <source>{n} other sessions are working</source>
            <translation>另有 {n} 个会话正在工作</translation>
        </message>
        <message>
            <source>Ready</source>
            <translation>就绪</translation>
        </message>
    </context>
    <context>
        <name>LiveEvents</name>
        <message>
            <source>Not started: another OpenWorker window or process is working on this session. Try again when that turn has ended, or stop it there.</source>
            <translation>未开始：另一个 OpenWorker 窗口或进程正在处理此会话。请在那一轮结束后重试，或在那里停止它。</translation>
        </message>
        <message>
            <source>The turn failed: {message}</source>
            <translation>本轮失败：{message}</translation>
        </message>
        <message>
            <source>Retry</source>
            <translation>重试</translation>
        </message>
    </context>
    <context>
        <name>SessionPickers</name>
        <message>
            <source>Choose a model first: type or pick one in the model box next to Send, or connect a provider in Settings. Your message is still there.</source>
            <translation>请先选择模型：在“发送”旁边的模型框中输入或选择一个，或在设置中连接提供商。你的消息仍然保留。</translation>
        </message>
    </context>
    <context>
        <name>PlanCard</name>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="85" />
            <source>Keep at least one work item: a team needs something to do.</source>
            <translation>请至少保留一项工作：团队需要有事可做。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="87" />
            <source>A work item names a worker who is not on the team.</source>
            <translation>有一项工作指定的成员不在团队中。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="89" />
            <source>Two workers have the same name; the lead has to rename one.</source>
            <translation>有两名成员同名；需要负责人为其中一名改名。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="91" />
            <source>Two work items are the same; decline and ask the lead for a new plan.</source>
            <translation>有两项工作重复；请拒绝并让负责人重新制定计划。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="93" />
            <source>Choose between 1 and 8 workers at once.</source>
            <translation>同时工作的成员请选择 1 到 8 名。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="94" />
            <source>This plan cannot run as it is. Decline it and tell the lead what to fix.</source>
            <translation>这份计划无法按原样执行。请拒绝它，并告诉负责人需要修改什么。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="115" />
            <source>Done when: {criteria}</source>
            <translation>完成标准：{criteria}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="119" />
            <source>Worker: {name}</source>
            <translation>成员：{name}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="120" />
            <source>Not assigned yet</source>
            <translation>尚未分配</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="125" />
            <source>Remove</source>
            <translation>移除</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="127" />
            <source>Remove “{title}” from the plan</source>
            <translation>从计划中移除“{title}”</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="166" />
            <source>Team plan for your approval</source>
            <translation>待你批准的团队计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="170" />
            <source>Outcome</source>
            <translation>目标</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="172" />
            <source>Work items</source>
            <translation>工作项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="176" />
            <source>Workers</source>
            <translation>成员</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="178" />
            <source>Limits</source>
            <translation>限额</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="183" />
            <source>Problem with the plan</source>
            <translation>计划有问题</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="215" />
            <source>Persona of {name}</source>
            <translation>{name} 的角色</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="225" />
            <source>Read-only</source>
            <translation>只读</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="226" />
            <source>This worker may read and search but not change files</source>
            <translation>该成员可以读取和搜索，但不能修改文件</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="227" />
            <source>{name} is read-only</source>
            <translation>{name} 为只读</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="243" />
            <source>No limit</source>
            <translation>不限</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="245" />
            <source>Team budget in dollars</source>
            <translation>团队预算（美元）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="246" />
            <source>Cost budget</source>
            <translation>费用预算</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="253" />
            <source>Team budget in tokens</source>
            <translation>团队预算（令牌）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="254" />
            <source>Token budget</source>
            <translation>令牌预算</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="258" />
            <source>Workers in parallel</source>
            <translation>同时工作的成员数</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="259" />
            <source>Workers at once</source>
            <translation>同时工作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="268" />
            <source>Reason for declining (optional)</source>
            <translation>拒绝理由（可选）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="269" />
            <source>Reason for declining</source>
            <translation>拒绝理由</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="272" />
            <source>Decline</source>
            <translation>拒绝</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="273" />
            <source>Decline the plan</source>
            <translation>拒绝计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="275" />
            <source>Turn the plan down; the reason, if any, goes to the lead</source>
            <translation>拒绝这份计划；如填写理由，会转告负责人</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="278" />
            <source>Accept plan</source>
            <translation>接受计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="279" />
            <source>Accept the plan</source>
            <translation>接受计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="281" />
            <source>Start the team with the plan as it is shown here</source>
            <translation>按这里显示的计划启动团队</translation>
        </message>
    </context>
    <context>
        <name>PlanDialog</name>
        <message>
            <location filename="../../openworker_qt/ui/plan_card.py" line="388" />
            <source>Team plan</source>
            <translation>团队计划</translation>
        </message>
    </context>
    <context>
        <name>TeamBoardModel</name>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="58" />
            <source>Open</source>
            <translation>待办</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="58" />
            <source>In progress</source>
            <translation>进行中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="59" />
            <source>Review</source>
            <translation>待审核</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="59" />
            <source>Done</source>
            <translation>已完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="60" />
            <source>Blocked</source>
            <translation>受阻</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="60" />
            <source>Canceled</source>
            <translation>已取消</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="71" />
            <source>with {worker}</source>
            <translation>由 {worker} 负责</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="72" />
            <source>not assigned</source>
            <translation>未分配</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="73" />
            <source>{cost} so far</source>
            <translation>目前花费 {cost}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="75" />
            <source>no progress for a while</source>
            <translation>一段时间没有进展</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="77" />
            <source>last comment: {text}</source>
            <translation>最新评论：{text}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="85" />
            <source>Done when: {criteria}</source>
            <translation>完成标准：{criteria}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="87" />
            <source>Handed in: {files}</source>
            <translation>已提交：{files}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/qt/team_board_model.py" line="169" />
            <source>{state}: {n} items</source>
            <translation>{state}：{n} 项</translation>
        </message>
    </context>
    <context>
        <name>TeamCardDelegate</name>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="136" />
            <source>No progress</source>
            <translation>没有进展</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="143" />
            <source>Unassigned</source>
            <translation>未分配</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="158" />
            <source>Lead</source>
            <translation>负责人</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="158" />
            <source>You</source>
            <translation>你</translation>
        </message>
    </context>
    <context>
        <name>TeamBoard</name>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="192" />
            <source>Team outcome</source>
            <translation>团队目标</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="202" />
            <source>Budget, stop</source>
            <translation>预算、停止</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="203" />
            <source>Team actions</source>
            <translation>团队操作</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="204" />
            <source>Change the team's budget or stop it</source>
            <translation>修改团队预算或停止团队</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="206" />
            <source>Change the budget…</source>
            <translation>修改预算…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="208" />
            <source>Stop the team</source>
            <translation>停止团队</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="215" />
            <source>Team status</source>
            <translation>团队状态</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="220" />
            <source>Team spend</source>
            <translation>团队花费</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="227" />
            <source>Budget used</source>
            <translation>已用预算</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="230" />
            <source>The lead's plan is waiting for you.</source>
            <translation>负责人的计划正在等你审批。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="234" />
            <source>Review the plan…</source>
            <translation>审阅计划…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="236" />
            <source>Review the plan</source>
            <translation>审阅计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="238" />
            <source>Open the lead's plan to change it, accept it or decline it</source>
            <translation>打开负责人的计划，修改、接受或拒绝</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="262" />
            <source>Work items</source>
            <translation>工作项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="271" />
            <source>Team board</source>
            <translation>团队看板</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="290" />
            <source>{state} · {done} of {total} done</source>
            <translation>{state} · 已完成 {done}/{total}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="301" />
            <source>The lead is planning</source>
            <translation>负责人正在制定计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="302" />
            <source>Waiting for you to approve the plan</source>
            <translation>等待你批准计划</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="303" />
            <source>Working</source>
            <translation>工作中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="304" />
            <source>The lead is putting the result together</source>
            <translation>负责人正在汇总成果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="305" />
            <source>Finished</source>
            <translation>已完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="306" />
            <source>Stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="307" />
            <source>Paused: the budget is used up</source>
            <translation>已暂停：预算已用完</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="308" />
            <source>Failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="313" />
            <source>Nothing spent yet · budget {budget}</source>
            <translation>尚未花费 · 预算 {budget}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="314" />
            <source>Nothing spent yet</source>
            <translation>尚未花费</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="315" />
            <source>{spent} of {budget}</source>
            <translation>{spent}（预算 {budget}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="319" />
            <source>{used} of {budget} tokens</source>
            <translation>{used} 令牌（预算 {budget}）</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="322" />
            <source>{used} tokens</source>
            <translation>{used} 令牌</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="323" />
            <source>Spent {cost} · {tokens}</source>
            <translation>已花费 {cost} · {tokens}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="367" />
            <source>Open the worker's session</source>
            <translation>打开该成员的会话</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="371" />
            <source>Accept</source>
            <translation>接受</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="372" />
            <source>Send back…</source>
            <translation>退回…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="375" />
            <source>Reopen</source>
            <translation>重新打开</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="378" />
            <source>Assign to</source>
            <translation>分配给</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="382" />
            <source>Comment…</source>
            <translation>评论…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="385" />
            <source>Cancel this item</source>
            <translation>取消此项</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="398" />
            <source>Team budget</source>
            <translation>团队预算</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="399" />
            <source>Cost budget in dollars (0 for no limit); spent so far: {spent}</source>
            <translation>费用预算（美元，0 表示不限）；目前已花费：{spent}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="404" />
            <source>Set budget</source>
            <translation>设定预算</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="405" />
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="418" />
            <source>That did not work: {reason}</source>
            <translation>操作未成功：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="430" />
            <source>Send back</source>
            <translation>退回</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="430" />
            <source>Comment</source>
            <translation>评论</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="431" />
            <source>What should change in “{title}”?</source>
            <translation>“{title}”需要改什么？</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_board.py" line="432" />
            <source>Your comment on “{title}”</source>
            <translation>你对“{title}”的评论</translation>
        </message>
    </context>
    <context>
        <name>TeamPart</name>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="105" />
            <source>Team</source>
            <translation>团队</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="137" />
            <source>the team is not available</source>
            <translation>团队不可用</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="156" />
            <source>Team · {worker}</source>
            <translation>团队 · {worker}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="204" />
            <source>The team cannot be stopped from here.</source>
            <translation>无法在这里停止团队。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="209" />
            <source>The team could not be stopped: {reason}</source>
            <translation>团队未能停止：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="228" />
            <source>The team did not take the message: {reason}</source>
            <translation>团队没有收到这条消息：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="238" />
            <source>The team could not start: {reason}</source>
            <translation>团队未能启动：{reason}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_window.py" line="251" />
            <source>The team could not start.</source>
            <translation>团队未能启动。</translation>
        </message>
    </context>
    <context>
        <name>TeamSessions</name>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="56" />
            <source>Teams</source>
            <translation>团队</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="57" />
            <source>Each team under its lead, its workers below</source>
            <translation>每个团队位于其负责人之下，成员列在下方</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="82" />
            <source>{done} of {total} done</source>
            <translation>已完成 {done}/{total}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="84" />
            <source>Planning</source>
            <translation>制定计划中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="85" />
            <source>Plan waiting for you</source>
            <translation>计划等待你批准</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="86" />
            <source>Putting it together</source>
            <translation>汇总中</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="87" />
            <source>Finished</source>
            <translation>已完成</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="88" />
            <source>Stopped</source>
            <translation>已停止</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="89" />
            <source>Budget used up</source>
            <translation>预算已用完</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/team_sidebar.py" line="90" />
            <source>Failed</source>
            <translation>失败</translation>
        </message>
    </context>
    <context>
        <name>SidebarCollapse</name>
        <message>
            <source>Session &amp;list</source>
            <translation>会话列表(&amp;L)</translation>
        </message>
        <message>
            <source>Show or hide the session list ({key})</source>
            <translation>显示或隐藏会话列表（{key}）</translation>
        </message>
    </context>
    <context>
        <name>SessionHeader</name>
        <message>
            <source>Session</source>
            <translation>会话</translation>
        </message>
        <message>
            <source>Session list</source>
            <translation>会话列表</translation>
        </message>
        <message>
            <source>Deliverables</source>
            <translation>成果文件</translation>
        </message>
        <message>
            <source>Show or hide the deliverables ({key})</source>
            <translation>显示或隐藏成果文件（{key}）</translation>
        </message>
        <message>
            <source>New session</source>
            <translation>新建会话</translation>
        </message>
        <message>
            <source>Show or hide the deliverables</source>
            <translation>显示或隐藏成果文件</translation>
        </message>
    </context>
    <context>
        <name>FileChip</name>
        <message>
            <source>v{n}</source>
            <translation>第 {n} 版</translation>
        </message>
        <message>
            <source>Markdown document</source>
            <translation>Markdown 文档</translation>
        </message>
        <message>
            <source>PDF document</source>
            <translation>PDF 文档</translation>
        </message>
        <message>
            <source>Word document</source>
            <translation>Word 文档</translation>
        </message>
        <message>
            <source>Spreadsheet</source>
            <translation>电子表格</translation>
        </message>
        <message>
            <source>Table (CSV)</source>
            <translation>表格（CSV）</translation>
        </message>
        <message>
            <source>Slide deck</source>
            <translation>幻灯片</translation>
        </message>
        <message>
            <source>Web page</source>
            <translation>网页</translation>
        </message>
        <message>
            <source>Text file</source>
            <translation>文本文件</translation>
        </message>
        <message>
            <source>Data (JSON)</source>
            <translation>数据（JSON）</translation>
        </message>
        <message>
            <source>Python script</source>
            <translation>Python 脚本</translation>
        </message>
        <message>
            <source>Image</source>
            <translation>图片</translation>
        </message>
        <message>
            <source>{kind} file</source>
            <translation>{kind} 文件</translation>
        </message>
        <message>
            <source>File</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>{n} bytes</source>
            <translation>{n} 字节</translation>
        </message>
        <message>
            <source>{n} KB</source>
            <translation>{n} KB</translation>
        </message>
        <message>
            <source>{n} MB</source>
            <translation>{n} MB</translation>
        </message>
        <message>
            <source>Open ›</source>
            <translation>打开 ›</translation>
        </message>
        <message>
            <source>Open</source>
            <translation>打开</translation>
        </message>
        <message>
            <source>Show in folder</source>
            <translation>在文件夹中显示</translation>
        </message>
        <message>
            <source>Copy path</source>
            <translation>复制路径</translation>
        </message>
    </context>
    <context>
        <name>ApprovalAlways</name>
        <message>
            <source>A&amp;lways allow “{prefix}” commands</source>
            <translation>始终允许“{prefix}”命令(&amp;L)</translation>
        </message>
        <message>
            <source>For the rest of this session, run commands starting with “{prefix}” without asking, as long as the rest of each command only reads inside your folders</source>
            <translation>在此会话余下的时间里，以“{prefix}”开头的命令无需询问即可运行，前提是每条命令的其余部分只读取你的文件夹中的内容</translation>
        </message>
        <message>
            <source>A&amp;lways allow changes in {folder}</source>
            <translation>始终允许修改 {folder}(&amp;L)</translation>
        </message>
        <message>
            <source>For the rest of this session, change files in {folder} without asking</source>
            <translation>在此会话余下的时间里，无需询问即可修改 {folder} 中的文件</translation>
        </message>
        <message>
            <source>Always allow</source>
            <translation>始终允许</translation>
        </message>
    </context>
    <context>
        <name>DeliverableViewer</name>
        <message>
            <source>Slides drawn from their shapes (line breaks may differ). Install LibreOffice to see the real slides.</source>
            <translation>幻灯片按其中的形状绘制（换行可能不同）。安装 LibreOffice 即可看到真实的幻灯片。</translation>
        </message>
        <message>
            <source>An outline of the text and pictures. Install LibreOffice to see the real pages.</source>
            <translation>这是文字和图片的概要。安装 LibreOffice 即可看到真实的页面。</translation>
        </message>
        <message>
            <source>LibreOffice did not finish in time</source>
            <translation>LibreOffice 未能及时完成</translation>
        </message>
        <message>
            <source>LibreOffice could not convert the file</source>
            <translation>LibreOffice 无法转换此文件</translation>
        </message>
        <message>
            <source>{why}, so the slides are drawn from their shapes (line breaks may differ).</source>
            <translation>{why}，因此幻灯片按其中的形状绘制（换行可能不同）。</translation>
        </message>
        <message>
            <source>{why}, so this is an outline of the text and pictures.</source>
            <translation>{why}，因此这里显示的是文字和图片的概要。</translation>
        </message>
        <message>
            <source>This PDF could not be read.</source>
            <translation>无法读取此 PDF。</translation>
        </message>
        <message>
            <source>This file could not be read: {error}</source>
            <translation>无法读取此文件：{error}</translation>
        </message>
        <message>
            <source>This file is no longer there.</source>
            <translation>此文件已不存在。</translation>
        </message>
        <message>
            <source>This image could not be read.</source>
            <translation>无法读取此图片。</translation>
        </message>
        <message>
            <source>This sheet is a chart; open the workbook to see it.</source>
            <translation>此工作表是一张图表；请打开工作簿查看。</translation>
        </message>
        <message>
            <source>Changes from the previous version</source>
            <translation>与上一版本相比的改动</translation>
        </message>
        <message>
            <source>Compare with previous</source>
            <translation>与上一版本比较</translation>
        </message>
        <message>
            <source>Copied.</source>
            <translation>已复制。</translation>
        </message>
        <message>
            <source>Copy contents</source>
            <translation>复制内容</translation>
        </message>
        <message>
            <source>Copy path</source>
            <translation>复制路径</translation>
        </message>
        <message>
            <source>Current file</source>
            <translation>当前文件</translation>
        </message>
        <message>
            <source>Document</source>
            <translation>文档</translation>
        </message>
        <message>
            <source>Open in browser</source>
            <translation>在浏览器中打开</translation>
        </message>
        <message>
            <source>Open with default app</source>
            <translation>用默认应用打开</translation>
        </message>
        <message>
            <source>Page {n}</source>
            <translation>第 {n} 页</translation>
        </message>
        <message>
            <source>Pages</source>
            <translation>页面</translation>
        </message>
        <message>
            <source>Path copied.</source>
            <translation>路径已复制。</translation>
        </message>
        <message>
            <source>Preparing the preview…</source>
            <translation>正在准备预览…</translation>
        </message>
        <message>
            <source>Restore this version</source>
            <translation>恢复此版本</translation>
        </message>
        <message>
            <source>Reveal in folder</source>
            <translation>在文件夹中显示</translation>
        </message>
        <message>
            <source>Sheets</source>
            <translation>工作表</translation>
        </message>
        <message>
            <source>Showing the first {shown} of {total} pages</source>
            <translation>显示前 {shown} 页，共 {total} 页</translation>
        </message>
        <message>
            <source>Showing the first {shown} of {total} slides</source>
            <translation>显示前 {shown} 张幻灯片，共 {total} 张</translation>
        </message>
        <message>
            <source>The two versions hold the same text.</source>
            <translation>两个版本的文字相同。</translation>
        </message>
        <message>
            <source>The version could not be restored: {error}</source>
            <translation>无法恢复此版本：{error}</translation>
        </message>
        <message>
            <source>Version {n} (current) · {when}</source>
            <translation>版本 {n}（当前）· {when}</translation>
        </message>
        <message>
            <source>Version {n} is the current file again.</source>
            <translation>版本 {n} 已重新成为当前文件。</translation>
        </message>
        <message>
            <source>Version {n} · {when}</source>
            <translation>版本 {n} · {when}</translation>
        </message>
        <message>
            <source>Version</source>
            <translation>版本</translation>
        </message>
        <message>
            <source>{n} pages</source>
            <translation>{n} 页</translation>
        </message>
        <message>
            <source>{n} rows</source>
            <translation>{n} 行</translation>
        </message>
        <message>
            <source>{n} slides</source>
            <translation>{n} 张幻灯片</translation>
        </message>
    </context>
    <context>
        <name>ChoicePicker</name>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Other: type your own answer</source>
            <translation>其他：输入你自己的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Your own answer</source>
            <translation>你自己的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Send the answer</source>
            <translation>发送回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Choice: {option}</source>
            <translation>选项：{option}</translation>
        </message>
    </context>
    <context>
        <name>ToolsPage</name>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Size</source>
            <translation>大小</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Licence</source>
            <translation>许可证</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Installed tools</source>
            <translation>已安装的工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Programs and packages a coworker installed after you agreed, in OpenWorker's own folder (never system-wide). Commands that use them still ask as usual.</source>
            <translation>在你同意后由同事安装的程序和软件包，位于 OpenWorker 自己的文件夹中（绝不安装到整个系统）。使用它们的命令仍会像往常一样征求你的同意。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Package</source>
            <translation>软件包</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Version</source>
            <translation>版本</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>From</source>
            <translation>来源</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>What it is for</source>
            <translation>用途</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Nothing installed yet.</source>
            <translation>尚未安装任何工具。</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Result</source>
            <translation>结果</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>&amp;Remove</source>
            <translation>移除(&amp;R)</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Remove the selected tool</source>
            <translation>移除所选工具</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>Removing {package}…</source>
            <translation>正在移除 {package}…</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>{package} was not removed: {why}</source>
            <translation>{package} 未能移除：{why}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/settings_tools.py" line="1" />
            <source>{package} was removed.</source>
            <translation>{package} 已移除。</translation>
        </message>
    </context>
    <context>
        <name>GrantsBox</name>
        <message>
            <source>Allowed for the rest of a session</source>
            <translation>在会话剩余时间内允许</translation>
        </message>
        <message>
            <source>What you allowed with “Always allow” on a command or a folder. It lasts until the session is deleted or the app quits; revoke it to be asked again.</source>
            <translation>你对某个命令或文件夹选择“始终允许”后放行的内容。它会持续到会话被删除或应用退出；撤销后会再次询问你。</translation>
        </message>
        <message>
            <source>Nothing is allowed beyond your settings right now.</source>
            <translation>目前没有超出设置范围的额外许可。</translation>
        </message>
        <message>
            <source>New session</source>
            <translation>新建会话</translation>
        </message>
        <message>
            <source>Run commands starting with “{prefix}” without asking (the rest of each command is still checked)</source>
            <translation>运行以“{prefix}”开头的命令时不再询问（每条命令的其余部分仍会检查）</translation>
        </message>
        <message>
            <source>Change files in {folder} without asking</source>
            <translation>修改 {folder} 中的文件时不再询问</translation>
        </message>
        <message>
            <source>{what} — in “{session}”</source>
            <translation>{what}——在“{session}”中</translation>
        </message>
        <message>
            <source>Revoke</source>
            <translation>撤销</translation>
        </message>
        <message>
            <source>Ask again next time</source>
            <translation>下次再询问</translation>
        </message>
    </context>
    <context>
        <name>ScheduledSessions</name>
        <message>
            <source>Scheduled</source>
            <translation>定时</translation>
        </message>
        <message>
            <source>Your automations; choose one to open its latest run</source>
            <translation>你的自动化任务；选择一个以打开它最近一次运行</translation>
        </message>
        <message>
            <source>{schedule} · paused</source>
            <translation>{schedule} · 已暂停</translation>
        </message>
        <message>
            <source>not run yet</source>
            <translation>尚未运行</translation>
        </message>
        <message>
            <source>last run: {status}</source>
            <translation>上次运行：{status}</translation>
        </message>
        <message>
            <source>running</source>
            <translation>运行中</translation>
        </message>
        <message>
            <source>waiting for you</source>
            <translation>等你处理</translation>
        </message>
        <message>
            <source>completed</source>
            <translation>已完成</translation>
        </message>
        <message>
            <source>failed</source>
            <translation>失败</translation>
        </message>
        <message>
            <source>skipped</source>
            <translation>已跳过</translation>
        </message>
    </context>
    <context>
        <name>GroupPicker</name>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>{n}. {question}</source>
            <translation>{n}. {question}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Type your answer</source>
            <translation>输入你的回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Question {n}: {question}</source>
            <translation>问题 {n}：{question}</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Answer</source>
            <translation>回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Send the answers</source>
            <translation>发送回答</translation>
        </message>
        <message>
            <location filename="../../openworker_qt/ui/choices.py" line="1" />
            <source>Still to answer: {numbers}</source>
            <translation>尚未回答：{numbers}</translation>
        </message>
    </context>
</TS>
